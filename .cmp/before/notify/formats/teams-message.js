"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.teamsMessage = teamsMessage;
const message_parts_1 = require("./message-parts");
const COLOR = {
    denied: 'attention',
    stopped: 'attention',
    'signal-silent': 'warning',
    'emergency-stop-engaged': 'attention',
    'policy-rejected': 'warning',
    warned: 'warning',
    waived: 'accent',
    'emergency-stop-released': 'good',
};
const text = (value, extra = {}) => ({
    type: 'TextBlock',
    text: value,
    wrap: true,
    ...extra,
});
/**
 * The body a Teams Workflows webhook ("Post to a channel when a webhook request is received")
 * expects: a message with one Adaptive Card attachment (version 1.4, the highest Teams renders).
 * The Office 365 connectors' MessageCard is retired and not sent.
 */
function teamsMessage(delivery) {
    const n = delivery.notification;
    const body = [
        text((0, message_parts_1.titleOf)(delivery), { size: 'Medium', weight: 'Bolder', color: COLOR[n.kind] }),
        text(n.message),
        { type: 'FactSet', facts: (0, message_parts_1.messageFacts)(delivery).map((f) => ({ title: f.label, value: f.value })) },
    ];
    const lines = [...(0, message_parts_1.policyLines)(n.policies), ...(n.problems ?? [])];
    if (lines.length > 0)
        body.push(text(lines.map((l) => `- ${l}`).join('\r')));
    if (n.exceptionHelp)
        body.push(text(n.exceptionHelp, { isSubtle: true, size: 'Small' }));
    const card = {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        type: 'AdaptiveCard',
        version: '1.4',
        body,
    };
    if (n.run?.url)
        card.actions = [{ type: 'Action.OpenUrl', title: 'Open the run', url: n.run.url }];
    return JSON.stringify({
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
    });
}
//# sourceMappingURL=teams-message.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.slackMessage = slackMessage;
const message_parts_1 = require("./message-parts");
/** Slack's mrkdwn needs &, < and > escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
const escapeMrkdwn = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/**
 * A Block Kit message for a Slack incoming webhook: a header, the message, the facts as fields,
 * the policies and a button to the run. `text` is the fallback shown in notifications. Limits from
 * Block Kit's reference: header 150 characters, section text 3000, a field 2000, at most 10 fields.
 */
function slackMessage(delivery) {
    const n = delivery.notification;
    const title = (0, message_parts_1.titleOf)(delivery);
    const blocks = [
        { type: 'header', text: { type: 'plain_text', text: (0, message_parts_1.cut)(title, 150), emoji: false } },
        { type: 'section', text: { type: 'mrkdwn', text: (0, message_parts_1.cut)(escapeMrkdwn(n.message), 3000) } },
    ];
    const fields = (0, message_parts_1.messageFacts)(delivery)
        .slice(0, 10)
        .map((f) => ({ type: 'mrkdwn', text: (0, message_parts_1.cut)(`*${f.label}*\n${escapeMrkdwn(f.value)}`, 2000) }));
    if (fields.length > 0)
        blocks.push({ type: 'section', fields });
    const lines = [...(0, message_parts_1.policyLines)(n.policies), ...(n.problems ?? [])];
    if (lines.length > 0)
        blocks.push({
            type: 'section',
            text: { type: 'mrkdwn', text: (0, message_parts_1.cut)(lines.map((l) => `• ${escapeMrkdwn(l)}`).join('\n'), 3000) },
        });
    if (n.exceptionHelp)
        blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: (0, message_parts_1.cut)(escapeMrkdwn(n.exceptionHelp), 3000) }] });
    if (n.run?.url)
        blocks.push({
            type: 'actions',
            elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the run' }, url: n.run.url }],
        });
    return JSON.stringify({ text: (0, message_parts_1.cut)(title, 3000), blocks });
}
//# sourceMappingURL=slack-message.js.map
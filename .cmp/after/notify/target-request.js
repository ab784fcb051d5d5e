"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.targetRequest = targetRequest;
const alertmanager_alerts_1 = require("./formats/alertmanager-alerts");
const slack_message_1 = require("./formats/slack-message");
const teams_message_1 = require("./formats/teams-message");
const webhook_body_1 = require("./formats/webhook-body");
const standard_webhook_signature_1 = require("./standard-webhook-signature");
const JSON_TYPE = { 'content-type': 'application/json' };
/**
 * The request that delivers a message to a target, built anew for every attempt: a generic
 * webhook's signature covers the attempt's own timestamp (receivers refuse old ones), while its
 * `webhook-id` stays the message's, so a receiver can drop a retry it already has.
 */
function targetRequest(target, delivery, now) {
    switch (target.type) {
        case 'slack':
            return { url: target.url, headers: JSON_TYPE, body: (0, slack_message_1.slackMessage)(delivery) };
        case 'teams':
            return { url: target.url, headers: JSON_TYPE, body: (0, teams_message_1.teamsMessage)(delivery) };
        case 'alertmanager':
            return {
                url: `${target.url.replace(/\/+$/, '')}/api/v2/alerts`,
                headers: JSON_TYPE,
                body: (0, alertmanager_alerts_1.alertmanagerAlerts)(delivery, target.resolveAfterMs, now),
            };
        case 'webhook': {
            const body = (0, webhook_body_1.webhookBody)(delivery);
            // parseNotifyConfig refuses a webhook target without a secret.
            const signed = target.secret
                ? (0, standard_webhook_signature_1.signWebhook)(target.secret, delivery.id, Math.floor(now.getTime() / 1000), body)
                : {};
            return { url: target.url, headers: { ...JSON_TYPE, ...signed }, body };
        }
    }
}
//# sourceMappingURL=target-request.js.map
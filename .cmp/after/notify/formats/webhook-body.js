"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WEBHOOK_BODY_VERSION = void 0;
exports.webhookBody = webhookBody;
/** The version of the generic webhook's body; a change that is not only an added field makes a new one. */
exports.WEBHOOK_BODY_VERSION = 1;
/**
 * The generic webhook's body (docs/notifications.md, "The generic webhook"): the Standard Webhooks
 * envelope (`type`, `timestamp`, `data`) with a `version`; `data` is the notification as built,
 * with the count of collapsed duplicates. Schema: docs/notification-webhook.schema.json.
 */
function webhookBody(delivery) {
    const n = delivery.notification;
    return JSON.stringify({
        type: `preflight-gate.${n.kind}`,
        version: exports.WEBHOOK_BODY_VERSION,
        timestamp: n.time,
        data: { ...n, count: delivery.count, firstTime: delivery.firstTime, lastTime: delivery.lastTime },
    });
}
//# sourceMappingURL=webhook-body.js.map
import type { Delivery } from './notification';
import type { TargetConfig } from './target-config';
import { alertmanagerAlerts } from './formats/alertmanager-alerts';
import { slackMessage } from './formats/slack-message';
import { teamsMessage } from './formats/teams-message';
import { webhookBody } from './formats/webhook-body';
import { signWebhook } from './standard-webhook-signature';

/** One HTTP request to a target: always a POST of JSON. */
export interface TargetRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The request that delivers a message to a target, built anew for every attempt: a generic
 * webhook's signature covers the attempt's own timestamp (receivers refuse old ones), while its
 * `webhook-id` stays the message's, so a receiver can drop a retry it already has.
 */
export function targetRequest(target: TargetConfig, delivery: Delivery, now: Date): TargetRequest {
  switch (target.type) {
    case 'slack':
      return { url: target.url, headers: JSON_TYPE, body: slackMessage(delivery) };
    case 'teams':
      return { url: target.url, headers: JSON_TYPE, body: teamsMessage(delivery) };
    case 'alertmanager':
      return {
        url: `${target.url.replace(/\/+$/, '')}/api/v2/alerts`,
        headers: JSON_TYPE,
        body: alertmanagerAlerts(delivery, target.resolveAfterMs, now),
      };
    case 'webhook': {
      const body = webhookBody(delivery);
      // parseNotifyConfig refuses a webhook target without a secret.
      const signed = target.secret
        ? signWebhook(target.secret, delivery.id, Math.floor(now.getTime() / 1000), body)
        : {};
      return { url: target.url, headers: { ...JSON_TYPE, ...signed }, body };
    }
  }
}

import type { Delivery } from '../notification';
import { cut, messageFacts, policyLines, titleOf } from './message-parts';

/** Slack's mrkdwn needs &, < and > escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Block = Record<string, unknown>;

/**
 * A Block Kit message for a Slack incoming webhook: a header, the message, the facts as fields,
 * the policies and a button to the run. `text` is the fallback shown in notifications. Limits from
 * Block Kit's reference: header 150 characters, section text 3000, a field 2000, at most 10 fields.
 */
export function slackMessage(delivery: Delivery): string {
  const n = delivery.notification;
  const title = titleOf(delivery);
  const blocks: Block[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: cut(escapeMrkdwn(n.message), 3000) } },
  ];
  const fields = messageFacts(delivery)
    .slice(0, 10)
    .map((f) => ({ type: 'mrkdwn', text: cut(`*${f.label}*\n${escapeMrkdwn(f.value)}`, 2000) }));
  if (fields.length > 0) blocks.push({ type: 'section', fields });
  const lines = [...policyLines(n.policies), ...(n.problems ?? [])];
  if (lines.length > 0)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(lines.map((l) => `• ${escapeMrkdwn(l)}`).join('\n'), 3000) },
    });
  if (n.exceptionHelp)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: cut(escapeMrkdwn(n.exceptionHelp), 3000) }] });
  if (n.run?.url)
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the run' }, url: n.run.url }],
    });
  return JSON.stringify({ text: cut(title, 3000), blocks });
}

import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { slackMessage } from '../../src/notify/formats/slack-message';
import { teamsMessage } from '../../src/notify/formats/teams-message';
import type { Delivery } from '../../src/notify/notification';
import { sampleNotification } from '../../src/notify/sample-notification';
import { FIXTURES } from '../helpers/fixtures';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const slack = ajv.compile(
  JSON.parse(readFileSync(join(FIXTURES, 'notify', 'slack-incoming-webhook.schema.json'), 'utf8')) as object,
);
const teams = ajv.compile(
  JSON.parse(readFileSync(join(FIXTURES, 'notify', 'teams-workflows-adaptive-card.schema.json'), 'utf8')) as object,
);

function delivery(change: (d: Delivery) => void = () => undefined): Delivery {
  const notification = sampleNotification(
    new Date('2026-03-07T10:02:11Z'),
    'https://sb.example.com/x/{executionId}',
    'Ask #chaos.',
  );
  const d = { id: 'msg_1', notification, count: 1, firstTime: notification.time, lastTime: notification.time };
  change(d);
  return d;
}

describe('the Slack and Teams schemas (test/fixtures/notify) and the messages', () => {
  it('refuse what the real services refuse: a header over 150 characters, raw < in mrkdwn, an Adaptive Card 1.5 property in a 1.4 card', () => {
    const good = JSON.parse(slackMessage(delivery()));
    expect(slack(good)).toBe(true);
    expect(slack({ ...good, blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] })).toBe(
      false,
    );
    expect(slack({ ...good, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'a <b> c' } }] })).toBe(false);
    const card = JSON.parse(teamsMessage(delivery()));
    expect(teams(card)).toBe(true);
    card.attachments[0].content.body[0].style = 'heading';
    expect(teams(card)).toBe(false);
  });

  it('stay within the limits with very long texts and many policies: cut with an ellipsis, the rest counted', () => {
    const long = delivery((d) => {
      d.notification.title = `Run 1 of ${'X'.repeat(300)} denied`;
      d.notification.message = 'm <&> '.repeat(2000);
      d.notification.policies = Array.from({ length: 8 }, (_, i) => ({
        policy: `p${i}`,
        mode: 'enforce' as const,
        result: 'deny' as const,
        reasons: ['r1', 'r2', 'r3', 'r4'],
      }));
      d.count = 50;
    });
    const message = JSON.parse(slackMessage(long));
    expect(slack(message)).toBe(true);
    expect(message.blocks[0].text.text).toHaveLength(150);
    expect(message.blocks[0].text.text.endsWith('…')).toBe(true);
    expect(message.blocks[3].text.text).toContain('• p0 (enforce): r1; r2; r3; and 1 more');
    expect(message.blocks[3].text.text).toContain('• and 3 more policies');
    expect(teams(JSON.parse(teamsMessage(long)))).toBe(true);
  });
});

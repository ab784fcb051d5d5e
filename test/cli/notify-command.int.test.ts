import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { freePort, ROOT } from '../helpers/server-process';
import { notifyCommand } from '../../src/cli/commands/notify-command';
import { BadInputError } from '../../src/common/bad-input-error';
import { startFakeReceiver, type FakeReceiver } from '../helpers/fake-receiver';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;

describe('preflight-gate notify --test --target <name>', () => {
  let receiver: FakeReceiver;
  let out: string;
  const write = (s: string) => {
    out += s;
  };
  beforeEach(async () => {
    out = '';
    receiver = await startFakeReceiver();
  });
  afterEach(() => receiver.close());
  const env = () => ({
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    STEADYBIT_URL: 'https://platform.steadybit.com',
  });

  it('sends a sample denial marked [test], signed, and exits 0 when the target accepts it', async () => {
    receiver.script({ status: 204 });
    expect(await notifyCommand({ test: true, target: 'webhook' }, env(), write)).toBe(0);
    expect(out).toBe('sent a test message to webhook (webhook): HTTP 204 after 1 attempt\n');
    const [r] = receiver.received;
    const body = new Webhook(SECRET).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }) as { data: { title: string; run: { url: string } } };
    expect(body.data.title).toBe('[test] Run 4711 of ADM-12 denied by production-business-hours');
    expect(body.data.run.url).toBe('https://platform.steadybit.com/experiments/ADM-12/executions/4711');
  });

  it('exits 1 and says why when the target refuses it (no retry for a 4xx)', async () => {
    receiver.script({ status: 404 });
    expect(await notifyCommand({ test: true, target: 'webhook' }, env(), write)).toBe(1);
    expect(out).toBe(
      'the test message to webhook (webhook) was not delivered (rejected): HTTP 404: the receiver refused the message (not retried)\n',
    );
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a 503 as the service would, keeping the command alive while it waits', async () => {
    receiver.script({ status: 503 }, { status: 200 });
    expect(await notifyCommand({ test: true, target: 'webhook' }, env(), write)).toBe(0);
    expect(out).toBe('sent a test message to webhook (webhook): HTTP 200 after 2 attempts\n');
  });

  it('as a command (bin/preflight-gate.js), exits 1 after its retries when nothing listens (it does not end early while it waits)', async () => {
    const port = await freePort();
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'bin', 'preflight-gate.js'), 'notify', '--test', '--target', 'webhook'],
      {
        env: {
          PATH: process.env.PATH,
          NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${port}/hook`,
          NOTIFY_WEBHOOK_SECRET: SECRET,
          NOTIFY_MAX_ATTEMPTS: '2',
        },
        encoding: 'utf8',
      },
    );
    expect([run.status, run.stdout]).toEqual([
      1,
      expect.stringMatching(
        /^the test message to webhook \(webhook\) was not delivered \(failed\): .*ECONNREFUSED.* \(after 2 attempts\)\n$/,
      ),
    ]);
  });

  it('names the configured targets when the one asked for is not one of them (exit 2)', async () => {
    await expect(notifyCommand({ test: true, target: 'slack' }, env(), write)).rejects.toThrow(
      new BadInputError('no notification target named "slack"; configured: webhook'),
    );
    await expect(notifyCommand({ test: true, target: 'slack' }, {}, write)).rejects.toThrow(
      /none is configured \(set NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET, or NOTIFY_TARGETS_FILE\)/,
    );
    await expect(notifyCommand({ target: 'webhook' }, env(), write)).rejects.toThrow(/give --test --target <name>/);
    await expect(
      notifyCommand({ test: true, target: 'webhook' }, { NOTIFY_WEBHOOK_URL: receiver.url }, write),
    ).rejects.toThrow(/NOTIFY_WEBHOOK_SECRET is not/);
  });
});

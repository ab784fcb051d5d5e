import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { runCli, tempDir } from '../cli/run-cli';

const EXAMPLE = join(ROOT, 'examples', 'dead-man');
const RUN = join(EXAMPLE, 'run.json');
const NOW = '2026-01-05T10:00:00Z';
const q = (s: string) =>
  `sum(rate(http_requests_total{service="${s}",code!~"5.."}[1m])) / sum(rate(http_requests_total{service="${s}"}[1m]))`;
const answering = { resultType: 'vector', result: [{ metric: {}, value: [1767607200, '0.998'] }] };
const cartSilent = {
  prometheus: { default: { [q('checkout')]: answering, [q('cart')]: { resultType: 'vector', result: [] } } },
};
const silentSince = (since: string) => [{ kind: 'prometheus', source: 'default', query: q('cart'), since }];

describe('preflight-gate eval and a deadMan signal (examples/dead-man)', () => {
  const { dir, cleanup } = tempDir({
    'silent.json': JSON.stringify(cartSilent),
    'silent-1m.json': JSON.stringify({ ...cartSilent, silentSince: silentSince('2026-01-05T09:59:00.000Z') }),
    'silent-2m.json': JSON.stringify({ ...cartSilent, silentSince: silentSince('2026-01-05T09:58:00.000Z') }),
    'bad-since.json': JSON.stringify({
      ...cartSilent,
      silentSince: [{ kind: 'prometheus', source: 'default', since: 'yesterday' }],
    }),
  });
  afterAll(cleanup);
  const evalWith = (file: string, ...more: string[]) =>
    runCli(['eval', '--payload', RUN, '--dir', EXAMPLE, '--now', NOW, '--signals', join(dir, file), ...more]);

  it('at the door, denies while an attacked service has no data', () => {
    const res = evalWith('silent.json');
    expect(res.stdout).toMatch(
      /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[attacked-service-dead-man\] dead man: query .*service="cart".* returned no samples; a run does not start while a signal it must keep answering is silent \(deadMan\)/,
    );
  });

  it('at the door, a silentSince given (a file written for a run in progress) changes nothing: still denied', () => {
    for (const file of ['silent-1m.json', 'silent-2m.json'])
      expect(evalWith(file).stdout).toMatch(
        /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[attacked-service-dead-man\] dead man: query .*service="cart".* returned no samples; a run does not start while a signal it must keep answering is silent \(deadMan\)/,
      );
  });

  it('while running, keeps it going until the signal has been silent for deadMan.after, then stops it, naming since when', () => {
    expect(evalWith('silent.json', '--while-running').stdout).toMatch(/^KEEPS RUNNING\n/);
    expect(evalWith('silent-1m.json', '--while-running').stdout).toMatch(/^KEEPS RUNNING\n/);
    const stopped = evalWith('silent-2m.json', '--while-running', '--exit-code');
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toMatch(
      /^STOPPED while running\n {2}attacked-service-dead-man: stops it: dead man: query .*service="cart".* has been silent since 2026-01-05T09:58:00\.000Z \(2m, deadMan\.after 2m\): returned no samples\n/,
    );
  });

  it('a silentSince that is not a time is a usage error naming the path', () => {
    const res = evalWith('bad-since.json', '--while-running');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/silentSince\[0\]\.since/);
  });
});

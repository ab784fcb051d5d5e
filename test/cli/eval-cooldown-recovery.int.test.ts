import { join } from 'node:path';
import { runCli, tempDir } from './run-cli';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'run-safety');
const RUN = join(EXAMPLE, 'no-overlap-run.json');
const NOW = '2026-01-05T10:00:00Z';
const Q = 'job:http_errors:ratio5m{deployment="checkout"}';
const HELD = `time() - max_over_time(timestamp(((${Q}) >= 0.01) or absent(${Q}))[300s:10s])`;
const sample = (v: string) => ({ resultType: 'vector', result: [{ metric: {}, value: [1767607198, v] }] });

describe('preflight-gate eval of a cool-down until recovered, with the ended runs and signals as facts', () => {
  const { dir, cleanup } = tempDir({
    'state.json': JSON.stringify({
      emergencyStop: { engaged: false },
      inProgress: { runs: {}, targets: {}, attributes: {} },
      ended: {
        'service:k8s.deployment=checkout': [{ id: '5101', atMs: Date.parse('2026-01-05T09:40:00Z'), state: 'FAILED' }],
      },
    }),
    'back.json': JSON.stringify({
      alertmanager: { default: { alerts: [] } },
      prometheus: { default: { [Q]: sample('0.002'), [HELD]: sample('90') } },
    }),
  });
  afterAll(cleanup);
  const evalWith = (...extra: string[]) =>
    runCli(['eval', '--payload', RUN, '--dir', EXAMPLE, '--now', NOW, '--state', join(dir, 'state.json'), ...extra]);

  it('denies as the service does, saying since when checkout is back and how long remains, and lists both reads', () => {
    const res = evalWith('--signals', join(dir, 'back.json'), '--explain');
    expect(res.stdout).toMatch(
      /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[cooldown-until-recovered\] service k8s\.deployment=checkout is cooling down until it has recovered from execution 5101 \(ended FAILED at 2026-01-05T09:40:00\.000Z\): query job:http_errors:ratio5m\{deployment="checkout"\} on prometheus "default" is back < 0\.01 since 2026-01-05T09:58:40\.000Z, not yet for 5m: 3m40s remains; the cool-down ends at the latest at 2026-01-06T09:40:00\.000Z \(decision/,
    );
    expect(res.stdout).toContain(`read: prometheus "default" ${HELD} -> 90`);
  });

  it('without signal facts the recovery cannot be judged, and the run is denied as production would with its sources away', () => {
    const res = evalWith();
    expect(res.stdout).toMatch(/^DENY \(HTTP 403\)/);
    expect(res.stdout).toContain(
      `cannot decide whether service k8s.deployment=checkout has recovered from execution 5101 (ended FAILED at 2026-01-05T09:40:00.000Z): query ${Q} on prometheus "default" was not run (no signal facts for it)`,
    );
  });
});

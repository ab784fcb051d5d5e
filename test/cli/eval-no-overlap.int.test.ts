import { join } from 'node:path';
import { runCli, tempDir } from './run-cli';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'run-safety');
const RUN = join(EXAMPLE, 'no-overlap-run.json');
const NOW = '2026-01-05T10:00:00Z';

describe('preflight-gate eval with the runs in progress as facts (noOverlap)', () => {
  const { dir, cleanup } = tempDir({
    'on-host.json': JSON.stringify({
      emergencyStop: { engaged: false },
      ended: {}, // cooldown-until-recovered.yaml shares the directory: no run ended
      inProgress: {
        runs: { '5007': { experimentKey: 'PAY-3', team: 'PAY' } },
        targets: {},
        attributes: { 'host.hostname': { 'ip-10-0-3-17': ['5007'] } },
      },
    }),
    'unknown-id.json': JSON.stringify({
      inProgress: { runs: {}, targets: {}, attributes: { 'host.hostname': { 'ip-10-0-3-17': ['5007'] } } },
    }),
  });
  afterAll(cleanup);

  it('denies as the service does, naming the run in the way, its team and the shared host', () => {
    const res = runCli([
      'eval',
      '--payload',
      RUN,
      '--dir',
      EXAMPLE,
      '--now',
      NOW,
      '--state',
      join(dir, 'on-host.json'),
    ]);
    expect(res.stdout).toMatch(
      /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[no-overlap\] a run in progress shares targets with this run: run 5007 \(experiment PAY-3, team PAY\) on host\.hostname=ip-10-0-3-17 \(decision/,
    );
  });

  it("without --state decides on a fresh service's facts: no run in progress, the run is allowed", () => {
    expect(runCli(['eval', '--payload', RUN, '--dir', EXAMPLE, '--now', NOW]).stdout).toMatch(/^ALLOW \(HTTP 200\)/);
  });

  it('refuses runs in progress listed but not described, with exit 2 naming the path', () => {
    const res = runCli(['eval', '--payload', RUN, '--dir', EXAMPLE, '--state', join(dir, 'unknown-id.json')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('run 5007 is not described in inProgress.runs');
  });
});

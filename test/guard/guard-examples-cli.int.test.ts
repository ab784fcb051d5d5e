import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { runCli, tempDir } from '../cli/run-cli';

const EXAMPLES = join(ROOT, 'examples', 'guard');
const PAYLOAD = join(EXAMPLES, 'run.json');
const env = { EMERGENCY_STOP_POLICY: 'off' };

describe('examples/guard', () => {
  it('validates and its suites pass as they are', () => {
    expect(runCli(['validate', EXAMPLES], { env })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('valid (0 errors, 0 warnings)'),
    });
    const res = runCli(['test', EXAMPLES], { env });
    expect(res.stdout).toContain('11/11 cases passed');
    expect(res.code).toBe(0);
  });

  it('critical-alerts.yaml works alone in a policy directory', () => {
    const dir = tempDir({ 'critical-alerts.yaml': readFileSync(join(EXAMPLES, 'critical-alerts.yaml'), 'utf8') });
    expect(runCli(['validate', dir.dir], { env }).code).toBe(0);
    const names = tempDir({
      'names.json': JSON.stringify({ '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f': { name: 'production' } }),
    });
    const signals = tempDir({
      's.json': JSON.stringify({
        alertmanager: {
          default: {
            alerts: [
              {
                labels: { alertname: 'X', severity: 'critical', environment: 'production' },
                status: { state: 'active', silencedBy: [], inhibitedBy: [] },
              },
            ],
          },
        },
      }),
    });
    const res = runCli(
      [
        'eval',
        '--payload',
        PAYLOAD,
        '--dir',
        dir.dir,
        '--while-running',
        '--environments',
        join(names.dir, 'names.json'),
        '--signals',
        join(signals.dir, 's.json'),
        '--exit-code',
      ],
      { env },
    );
    expect(res.stdout).toMatch(
      /^STOPPED while running\n {2}critical-alerts: stops it: 1 alert matching \{severity="critical", environment="production"\} firing/,
    );
    expect(res.code).toBe(1);
  });
});

describe('preflight-gate eval --while-running', () => {
  it("gives the guard's answer for a silenced alert: a silence made after the run was created hides nothing", () => {
    const names = tempDir({
      'names.json': JSON.stringify({ '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f': { name: 'production' } }),
    });
    // examples/guard/run.json was created at 09:45.
    const silencedAt = (startsAt: string) =>
      JSON.stringify({
        alertmanager: {
          default: {
            alerts: [
              {
                labels: { alertname: 'X', severity: 'critical', environment: 'production' },
                status: { state: 'suppressed', silencedBy: ['s-1'], inhibitedBy: [] },
              },
            ],
            silences: { 's-1': { startsAt, updatedAt: startsAt } },
          },
        },
      });
    const signals = tempDir({
      'mid-run.json': silencedAt('2026-01-05T09:50:00.000Z'),
      'before.json': silencedAt('2026-01-05T09:00:00.000Z'),
    });
    const evalWith = (file: string) =>
      runCli(
        [
          'eval',
          '--payload',
          PAYLOAD,
          '--dir',
          EXAMPLES,
          '--now',
          '2026-01-05T10:00:00Z',
          '--while-running',
          '--environments',
          join(names.dir, 'names.json'),
          '--signals',
          join(signals.dir, file),
          '--exit-code',
        ],
        { env },
      );
    const midRun = evalWith('mid-run.json');
    expect(midRun.stdout).toMatch(/^STOPPED while running\n {2}critical-alerts: stops it: 1 alert matching/);
    expect(midRun.stdout).toContain(
      'silenced by s-1, made or changed after the run started (2026-01-05T09:45:00.000Z)',
    );
    expect(midRun.code).toBe(1);
    expect(evalWith('before.json')).toMatchObject({ code: 0, stdout: expect.not.stringContaining('STOPPED') });
  });

  it('says whether, by which policy and why the run would be stopped at a time (json)', () => {
    const names = tempDir({
      'names.json': JSON.stringify({ '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f': { name: 'production' } }),
    });
    const args = [
      'eval',
      '--payload',
      PAYLOAD,
      '--dir',
      EXAMPLES,
      '--while-running',
      '--environments',
      join(names.dir, 'names.json'),
      '--format',
      'json',
    ];
    const after = JSON.parse(runCli([...args, '--now', '2026-01-05T16:00:30Z'], { env }).stdout) as {
      stopped: boolean;
      findings: Array<{ policy: string; action: string; reason: string }>;
    };
    expect(after.stopped).toBe(true);
    expect(after.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          policy: 'production-business-hours',
          action: 'stop',
          reason: expect.stringContaining('business hours'),
        }),
      ]),
    );
    const before = JSON.parse(
      runCli([...args, '--now', '2026-01-05T15:59:00Z', '--signals', join(EXAMPLES, '..', 'signals', 'signals.json')], {
        env,
      }).stdout,
    ) as { stopped: boolean };
    expect(before.stopped).toBe(false);
  });
});

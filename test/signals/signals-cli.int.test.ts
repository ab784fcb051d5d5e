import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { runCli, tempDir } from '../cli/run-cli';

const EXAMPLES = join(ROOT, 'examples', 'signals');
const PAYLOAD = join(EXAMPLES, 'run.json');
const FACTS = join(EXAMPLES, 'signals.json');
const env = { EMERGENCY_STOP_POLICY: 'off' };

describe('preflight-gate eval --signals', () => {
  it('decides the worked examples of docs/signals.md from a signal facts file, as documented', () => {
    const res = runCli(
      ['eval', '--payload', PAYLOAD, '--dir', EXAMPLES, '--signals', FACTS, '--now', '2026-01-05T10:00:00Z'],
      { env },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      '[no-attacks-during-critical-alerts] 1 alert matching {severity="critical", namespace="production"} firing in alertmanager "default" (read 2026-01-05T09:59:58.000Z): HighErrorRate{namespace="production",severity="critical"} since 2026-01-05T09:41:00.000Z (decision',
    );
    expect(res.stdout).toContain(
      '[error-budget-burn] the error budget burns too fast: query slo:error_budget_burn_rate:1h{environment="production"} on prometheus "default" returned {environment="production"} 16.2 > 14.4 (read 2026-01-05T09:59:58.000Z)',
    );
  });

  it.each([
    ['no-attacks-during-critical-alerts.yaml', '[no-attacks-during-critical-alerts]'],
    ['error-budget-burn.yaml', '[error-budget-burn]'],
  ])('gives the denial docs/signals.md shows for %s', (file, policy) => {
    const doc = readFileSync(join(ROOT, 'docs', 'signals.md'), 'utf8');
    const shown = doc.split('\n').find((l) => l.startsWith(`Denied by 1 policy: ${policy}`));
    const dir = tempDir({ [file]: readFileSync(join(EXAMPLES, file), 'utf8') });
    const res = runCli(['eval', '--payload', PAYLOAD, '--dir', dir.dir, '--signals', FACTS], { env });
    expect(shown).toBeDefined();
    expect(res.stdout).toContain(`message: ${shown}`);
  });

  it('explains what each signal rule read: the source, the query, the result and when', () => {
    const res = runCli(['eval', '--payload', PAYLOAD, '--dir', EXAMPLES, '--signals', FACTS, '--explain'], { env });
    expect(res.stdout).toContain('signals read (2):');
    expect(res.stdout).toContain(
      '  alertmanager "default" GET /api/v2/alerts -> 1 unresolved alert (read 2026-01-05T09:59:58.000Z)',
    );
    expect(res.stdout).toContain(
      '  prometheus "default" slo:error_budget_burn_rate:1h{environment="production"} -> 1 sample: 16.2 (read 2026-01-05T09:59:58.000Z)',
    );
    expect(res.stdout).toMatch(
      /read: prometheus "default" slo:error_budget_burn_rate:1h\{environment="production"\} -> \{environment="production"\} 16.2 \(read 2026-01-05T09:59:58.000Z\)/,
    );
  });

  it('explains what a signal rule read when it passed, too', () => {
    const staging = tempDir({
      'run.json': readFileSync(PAYLOAD, 'utf8').replace('"environment": "production"', '"environment": "staging"'),
    });
    const res = runCli(
      ['eval', '--payload', join(staging.dir, 'run.json'), '--dir', EXAMPLES, '--signals', FACTS, '--explain'],
      { env },
    );
    expect(res.stdout).toMatch(/^ALLOW/);
    expect(res.stdout).toContain(
      '          - passed: rules[0].alerts\n          read: alertmanager "default" {severity="critical", namespace="staging"} -> 0 matching alerts of 1 (read 2026-01-05T09:59:58.000Z)',
    );
  });

  it('without --signals the signal rules cannot decide (as the service with its sources away)', () => {
    const res = runCli(['eval', '--payload', PAYLOAD, '--dir', EXAMPLES], { env });
    expect(res.stdout).toMatch(/^DENY/);
    expect(res.stdout).toContain(
      'cannot decide: the alerts of alertmanager "default" were not read (no signal facts for it)',
    );
  });

  it('refuses a malformed facts file with exit 2, naming the path', () => {
    const bad = tempDir({ 'bad.json': JSON.stringify({ alertmanager: { default: { alerts: [{ startsAt: 'x' }] } } }) });
    const res = runCli(['eval', '--payload', PAYLOAD, '--dir', EXAMPLES, '--signals', join(bad.dir, 'bad.json')], {
      env,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('alertmanager.default.alerts[0].labels: is required');
    expect(res.stderr).toContain('preflight-gate schema --signals');
  });

  it('refuses a sample value that is not a number (never read as NaN = empty = allow), exit 2 naming the path', () => {
    const facts = JSON.parse(readFileSync(FACTS, 'utf8'));
    const [query] = Object.keys(facts.prometheus.default);
    facts.prometheus.default[query].result[0].value[1] = '16,2';
    const bad = tempDir({ 'comma.json': JSON.stringify(facts) });
    const res = runCli(['eval', '--payload', PAYLOAD, '--dir', EXAMPLES, '--signals', join(bad.dir, 'comma.json')], {
      env,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`prometheus.default.${query}.result[0].value[1]: "16,2" is not a sample value`);
  });

  it('prints the JSON Schema of signal facts', () => {
    const res = runCli(['schema', '--signals']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(expect.objectContaining({ title: 'preflight-gate signal facts' }));
  });
});

describe('policy test suites with signals', () => {
  it('pass for the starter examples (examples/signals/signals.test.yaml)', () => {
    const res = runCli(['test', EXAMPLES], { env });
    expect(res.stdout).toMatch(/7 passed, 0 failed/);
    expect(res.code).toBe(0);
  });

  it('fail a case whose pinned signals change the answer, and refuse malformed signals at their line', () => {
    const dir = tempDir({
      'alerts.yaml': readFileSync(join(EXAMPLES, 'no-attacks-during-critical-alerts.yaml'), 'utf8'),
      'run.json': readFileSync(PAYLOAD, 'utf8'),
      'a.test.yaml': [
        'defaults: { payloadFile: run.json, now: "2026-01-05T10:00:00Z" }',
        'cases:',
        '  - name: a critical alert in production is not quiet',
        '    signals: { alertmanager: { default: { alerts: [{ labels: { severity: critical, namespace: production } }] } } }',
        '    expect: { decision: allow }',
      ].join('\n'),
      'b.test.yaml': [
        'defaults: { payloadFile: run.json }',
        'cases:',
        '  - name: malformed',
        '    signals: { alertmanager: { default: { alerts: [{ labels: { severity: 1 } }] } } }',
        '    expect: { decision: allow }',
      ].join('\n'),
    });
    const res = runCli(['test', dir.dir], { env });
    expect(res.code).toBe(2); // b.test.yaml cannot run as written (malformed signal facts)
    expect(res.stdout).toMatch(/a critical alert in production is not quiet/);
    expect(res.stdout).toMatch(
      /b\.test\.yaml:4:\d+ cases\[0\]\.signals\.alertmanager\.default\.alerts\[0\]\.labels\.severity: must be string/,
    );
    expect(res.stdout).not.toMatch(/is not a known field|oneOf/);
  });
});

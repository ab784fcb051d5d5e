import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Witness } from '../../src/prove/analysis';
import { CLI } from '../cli/run-cli';
import { freePort, ROOT, waitFor } from '../helpers/server-process';
import { signedPost } from '../helpers/signed-post';
import { BUNDLED, setDirs } from './prove-sets';

/**
 * Every witness `diff` prints is decided as it says by `eval` (given the witness's now and facts)
 * and by the started service (a signed POST, its clock set to the witness's now by libfaketime):
 * the witness is the engine's answer, not the analysis's.
 */
const SECRET = 'prove-secret';
const NOW = '2026-03-02T10:00:00Z';

const cli = (args: string[]) => {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
};

/** The service on `dir`, its clock starting at `at` (rounded up to the second: within the witness's class). */
async function serviceAt(dir: string, at: string) {
  const port = await freePort();
  const start = new Date(Math.ceil(Date.parse(at) / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);
  const child = spawn('faketime', ['-f', `@${start}`, process.execPath, join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      TZ: 'UTC',
      HOST: '127.0.0.1',
      PORT: String(port),
      POLICY_DIR: dir,
      WEBHOOK_SECRET: SECRET,
      POLICY_WATCH: 'false',
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
    // faketime forks the service and waits for it: a signal to faketime alone would leave the
    // service running, so both are one process group, stopped together.
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'the service to be ready', 20_000);
  const group = -(child.pid as number);
  const groupAlive = () => {
    try {
      process.kill(group, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stop = async () => {
    process.kill(group, 'SIGTERM');
    await waitFor(async () => !groupAlive(), 'the service and faketime to exit', 10_000).catch(() => {
      if (groupAlive()) process.kill(group, 'SIGKILL');
    });
  };
  return { url, stop };
}

describe('witnesses round-trip through eval and the service', () => {
  const dirs = setDirs();
  const files = mkdtempSync(join(tmpdir(), 'prove-witness-'));
  afterAll(() => {
    dirs.cleanup();
    rmSync(files, { recursive: true, force: true });
  });
  const base = BUNDLED;
  const proposed = dirs.bundledWith({ 'blocked-environments.yaml': '', 'blocked-environments.test.yaml': '' });
  const out = cli(['diff', base, proposed, '--format', 'json', '--now', NOW]);
  const report = JSON.parse(out.stdout) as { witnesses: Witness[] };
  // Business hours widened by an hour: witnesses that depend on the time of the run.
  const later = dirs.bundledWith({
    'production-business-hours.yaml': `kind: Policy
name: production-business-hours
match: { environments: [production] }
exclude: { actionKinds: [CHECK] }
rules:
  - timeWindow:
      timeZone: Europe/Berlin
      allowed: [{ name: business hours, days: [Mon-Fri], from: "09:00", to: "18:00" }]
`,
  });
  const timed = JSON.parse(cli(['diff', base, later, '--format', 'json', '--now', NOW]).stdout) as {
    witnesses: Witness[];
  };
  // Who started the run: a contractors' block whose glob is misspelt (createdBy sent as the schema admits it).
  const contractors = (glob: string) => ({
    'contractors.yaml': `kind: Policy\nname: contractors\nmatch: { createdBy: ["${glob}"] }\nrules:\n  - environments: { blocked: [production] }\n`,
  });
  const starterBase = dirs.bundledWith(contractors('*@contractors.example.com'));
  const starterProposed = dirs.bundledWith(contractors('*@contractor.example.com'));
  const started = JSON.parse(cli(['diff', starterBase, starterProposed, '--format', 'json', '--now', NOW]).stdout) as {
    witnesses: Witness[];
  };
  // A total across steps raised: a witness of several steps (docs/decisions/0027-runs-of-several-steps.md).
  const caps = readFileSync(join(BUNDLED, 'blast-radius-caps.yaml'), 'utf8');
  const totalRaised = dirs.bundledWith({ 'blast-radius-caps.yaml': caps.replace('maxTotal: 30', 'maxTotal: 40') });
  const summed = JSON.parse(cli(['diff', base, totalRaised, '--format', 'json', '--now', NOW]).stdout) as {
    witnesses: Witness[];
  };
  // A namespace no longer forbidden: witnesses that list the step's targets (targetExecutions).
  const namespaces = (values: string) => ({
    'namespaces.yaml': `kind: Policy\nname: namespaces\nrules:\n  - targetAttributes: { forbid: { k8s.namespace: [${values}] } }\n`,
  });
  const targetsBase = dirs.bundledWith(namespaces('kube-system, payments'));
  const targetsProposed = dirs.bundledWith(namespaces('kube-system'));
  const targeted = JSON.parse(cli(['diff', targetsBase, targetsProposed, '--format', 'json', '--now', NOW]).stdout) as {
    witnesses: Witness[];
  };
  // A burn-rate threshold and a concurrency cap raised: witnesses whose signals and state decide.
  const limits = (threshold: number, maxRunning: number) => ({
    'limits.yaml': `kind: Policy\nname: limits\nrules:\n  - prometheus: { query: 'slo:burn_rate:1h{service="checkout"}', denyWhen: "> ${threshold}" }\n  - concurrency: { maxRunning: ${maxRunning} }\n`,
  });
  const factsBase = dirs.bundledWith(limits(2, 1));
  const factsProposed = dirs.bundledWith(limits(5, 3));
  const recorded = JSON.parse(cli(['diff', factsBase, factsProposed, '--format', 'json', '--now', NOW]).stdout) as {
    witnesses: Witness[];
  };
  const all = [
    ...recorded.witnesses.map((w) => ({ w, base: factsBase, proposed: factsProposed })),
    ...summed.witnesses.map((w) => ({ w, base, proposed: totalRaised })),
    ...report.witnesses.map((w) => ({ w, base, proposed })),
    ...targeted.witnesses.map((w) => ({ w, base: targetsBase, proposed: targetsProposed })),
    ...timed.witnesses.map((w) => ({ w, base, proposed: later })),
    ...started.witnesses.map((w) => ({ w, base: starterBase, proposed: starterProposed })),
  ];

  it('diff finds newly allowed witnesses and --fail-on newly-allowed exits 1', () => {
    expect(out.code).toBe(0);
    expect(report.witnesses.length).toBeGreaterThan(0);
    expect(cli(['diff', base, proposed, '--fail-on', 'newly-allowed', '--now', NOW]).code).toBe(1);
    expect(cli(['diff', base, base, '--fail-on', 'any-change', '--now', NOW])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^no run would be decided differently\n/),
    });
  });

  it('eval --now with the witness facts gives the witness answers under both sets', () => {
    expect(recorded.witnesses.map((w) => w.kind)).toEqual(['newly-allowed', 'newly-allowed']);
    expect(recorded.witnesses.some((w) => w.facts.signals.prometheus !== undefined)).toBe(true);
    expect(recorded.witnesses.some((w) => Object.values(w.facts.state.running ?? {}).some((r) => r.length > 0))).toBe(
      true,
    );
    expect(timed.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(summed.witnesses.map((w) => [w.kind, (w.payload.execution.steps ?? []).length > 1])).toEqual([
      ['newly-allowed', true],
    ]);
    expect(targeted.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const listed = targeted.witnesses[0].payload.execution.steps?.[0].targetExecutions ?? [];
    expect(listed.flatMap((t) => (t.attributes ?? []).map((a) => `${a.key}=${a.value}`))).toContain(
      'k8s.namespace=payments',
    );
    expect(started.witnesses.map((w) => [w.kind, w.payload.execution.createdBy !== undefined])).toEqual([
      ['newly-allowed', true],
      ['newly-denied', true],
    ]);
    all.forEach(({ w, base, proposed }, i) => {
      const args = ['eval', '--format', 'json', '--now', w.now];
      writeFileSync(join(files, `payload-${i}.json`), JSON.stringify(w.payload));
      args.push('--payload', join(files, `payload-${i}.json`));
      for (const [key, value] of Object.entries(w.facts)) {
        writeFileSync(join(files, `${key}-${i}.json`), JSON.stringify(value));
        args.push(`--${key}`, join(files, `${key}-${i}.json`));
      }
      for (const [dir, answer] of [
        [base, w.base],
        [proposed, w.proposed],
      ] as const) {
        const res = cli([...args, '--dir', dir]);
        expect(res.stderr).toBe('');
        expect(JSON.parse(res.stdout).allowed).toBe(answer?.allowed);
      }
    });
  });

  it('the started service answers each witness a fresh service can be asked as the witness says', async () => {
    // A fresh service: no emergency stop, no Platform API (so no environment names, no team members).
    const asked = all.filter(
      ({ w }) =>
        w.facts.environments === undefined &&
        !w.facts.state.emergencyStop?.engaged &&
        Object.keys(w.facts.teams).length === 0 &&
        Object.keys(w.facts.signals).length === 0,
    );
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.some(({ w }) => w.payload.execution.createdBy !== undefined)).toBe(true);
    expect(asked.some(({ w }) => (w.payload.execution.steps ?? []).length > 1)).toBe(true);
    expect(asked.some(({ w }) => w.payload.execution.steps?.[0].targetExecutions !== undefined)).toBe(true);
    // One service per set and witness time, asked every witness of that time; two started at once.
    const byService = new Map<string, { dir: string; now: string; asks: Array<{ w: Witness; allowed?: boolean }> }>();
    for (const { w, base, proposed } of asked)
      for (const [dir, answer] of [
        [base, w.base],
        [proposed, w.proposed],
      ] as const) {
        const key = `${dir}\n${w.now}`;
        const one = byService.get(key) ?? { dir, now: w.now, asks: [] };
        one.asks.push({ w, allowed: answer?.allowed });
        byService.set(key, one);
      }
    const answered: Array<{ set: string; now: string; kind: string; allowed?: boolean; status: number }> = [];
    const services = [...byService.values()];
    for (let i = 0; i < services.length; i += 2)
      await Promise.all(
        services.slice(i, i + 2).map(async ({ dir, now, asks }) => {
          const service = await serviceAt(dir, now);
          try {
            for (const { w, allowed } of asks)
              answered.push({
                set: dir,
                now,
                kind: w.kind,
                allowed,
                status: (await signedPost(`${service.url}/preflight`, w.payload, SECRET)).status,
              });
          } finally {
            await service.stop();
          }
        }),
      );
    expect(answered).toHaveLength(asked.length * 2);
    // Every answer as the witness says: none allowed (200) where it says denied, or the other way.
    expect(answered.filter(({ allowed, status }) => (status === 200) !== allowed)).toEqual([]);
  }, 240_000);
});

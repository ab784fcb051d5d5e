import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import {
  blockPolicy,
  keepPosting,
  metric,
  preflightIn,
  readyz,
  revisionFor,
  writeSet,
  type Answer,
} from './reload-helpers';

/**
 * The running service, its policy directory edited under load. Set A blocks "alpha"; set B is
 * two files that both change (a run in alpha is allowed by B): a decision on a half-written B
 * would carry a revision that is neither A's nor B's.
 */
const A = { 'gate.yaml': blockPolicy('gate', 'alpha'), 'other.yaml': blockPolicy('other', 'omega') };
const INVALID = { 'gate.yaml': 'kind: Policy\nname: gate\nrules:\n  - environments:\n      blockd: [alpha]\n' };
const B = { 'gate.yaml': blockPolicy('gate', 'beta'), 'other.yaml': blockPolicy('other', 'gamma') };
const EXPECTED: Record<string, number> = { [revisionFor(A)]: 403, [revisionFor(B)]: 200 };

/** Every answer is the right decision for the revision it names, and names it in the message too. */
function wrongAnswers(answers: Answer[]): Answer[] {
  return answers.filter(
    (a) =>
      a.revision === undefined ||
      EXPECTED[a.revision] !== a.status ||
      !a.message.includes(`policy revision ${a.revision})`),
  );
}

describe('hot reload of POLICY_DIR under load (real server process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-hot-'));
  let server: ServerProcess;
  beforeAll(async () => {
    writeSet(dir, A);
    server = await startServerProcess({ POLICY_DIR: dir, POLICY_RELOAD_DEBOUNCE_MS: '200' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('goes valid -> invalid -> valid with every request answered correctly for its revision', async () => {
    const load = keepPosting(server.url, preflightIn('alpha'));
    try {
      await waitFor(async () => load.answers.length >= 20, 'answers on revision A');

      writeSet(dir, INVALID);
      await waitFor(async () => (await readyz(server.url)).lastLoad?.ok === false, 'the invalid set to be rejected');
      const rejected = await readyz(server.url);
      expect(rejected).toMatchObject({
        status: 'ready',
        revision: revisionFor(A),
        lastLoad: { ok: false, trigger: 'watch', revision: revisionFor(A) },
      });
      expect(rejected.lastLoad?.problems[0]).toMatch(
        new RegExp(`^${dir}/gate\\.yaml:5:7 rules\\[0\\]\\.environments\\.blockd: blockd is not a known field`),
      );
      expect(server.output()).toMatch(
        new RegExp(
          `policy set rejected \\(watch\\): ${dir}/gate\\.yaml:5:7 .*still serving revision ${revisionFor(A)}`,
        ),
      );
      const beforeB = load.answers.length;
      await waitFor(async () => load.answers.length >= beforeB + 20, 'answers while the invalid set is on disk');

      writeSet(dir, B);
      await waitFor(async () => (await readyz(server.url)).revision === revisionFor(B), 'set B to be in use');
      const afterB = load.answers.length;
      await waitFor(async () => load.answers.length >= afterB + 20, 'answers on revision B');
    } finally {
      await load.stop();
    }

    expect(load.failures).toEqual([]);
    expect(wrongAnswers(load.answers)).toEqual([]);
    const byRevision = (rev: string) => load.answers.filter((a) => a.revision === rev).length;
    expect(byRevision(revisionFor(A))).toBeGreaterThanOrEqual(40);
    expect(byRevision(revisionFor(B))).toBeGreaterThanOrEqual(20);
    // Once B is in use no answer comes from A again: the swap is one reference.
    const firstB = load.answers.findIndex((a) => a.revision === revisionFor(B));
    expect(load.answers.slice(firstB).filter((a) => a.revision === revisionFor(A)).length).toBeLessThanOrEqual(4);
  });

  it('counts the reloads and reports only the revision in use', async () => {
    expect(await metric(server.url, 'preflight_policy_reloads_total{result="success"}')).toBe(2);
    expect(await metric(server.url, 'preflight_policy_reloads_total{result="failure"}')).toBe(1);
    expect(await metric(server.url, 'preflight_policies_loaded')).toBe(2);
    expect(await metric(server.url, `preflight_policy_bundle_info{revision="${revisionFor(B)}"}`)).toBe(1);
    expect(await metric(server.url, `preflight_policy_bundle_info{revision="${revisionFor(A)}"}`)).toBeUndefined();
    expect(await readyz(server.url)).toMatchObject({
      status: 'ready',
      revision: revisionFor(B),
      lastLoad: { ok: true, trigger: 'watch' },
    });
  });
});

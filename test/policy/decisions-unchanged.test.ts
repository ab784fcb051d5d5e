import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../src/policy/engine/decide';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { DECISION_SET_NAMES, DECISION_TIMES, decisionPayloads, decisionSets } from '../helpers/decision-cases';
import { FIXTURES } from '../helpers/fixtures';
import { freshFacts } from '../helpers/policy-sets/fresh-facts';

/**
 * Decisions stay byte-identical: test/fixtures/decisions/recorded-decisions.jsonl holds the decisions
 * the engine made before the facts seam (commit cc1e98f, evaluate()) on the bundled policies and the
 * benchmark's generated 1,000 and 10,000 sets, for every fixture preflight and benchmark payload, at
 * two moments, with the state of a fresh service (the bundled set also with a full scan). Today's
 * decide() must give the same JSON, byte for byte (docs/decisions/0001-facts-then-decide.md). The
 * sets come from the seeded generator (test/helpers/policy-sets/): a change to it needs a new recording,
 * made with the engine before the change, never with the one under test.
 */
interface Recorded {
  set: string;
  at: string;
  payload: string;
  fullScan: boolean;
  decision: unknown;
}

const recorded: Recorded[] = readFileSync(join(FIXTURES, 'decisions', 'recorded-decisions.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Recorded);
const sets = decisionSets();
const payloads = decisionPayloads();

// Every set, the fast lane's too: decisionSets leaves the 10,000 out there (test/helpers/test-lane.ts).
test('the recording covers every set, moment and payload', () => {
  const expected = DECISION_SET_NAMES.flatMap((name) =>
    DECISION_TIMES.flatMap((at) =>
      payloads.flatMap((p) =>
        (name === 'bundled' ? [false, true] : [false]).map((fullScan) => `${name} ${at} ${p.name} ${fullScan}`),
      ),
    ),
  );
  expect(recorded.map((r) => `${r.set} ${r.at} ${r.payload} ${r.fullScan}`)).toEqual(expected);
});

describe.each(sets.map((s) => [s.name, s] as const))('%s', (name, set) => {
  test.each(DECISION_TIMES)(
    'at %s every decision is the recorded one, byte for byte',
    async (at) => {
      const now = new Date(at);
      const loaded = loadBundle(set.files, now);
      if (!loaded.ok) throw new Error(`${name} does not load: ${loaded.problems[0]?.message}`);
      const facts = await freshFacts(loaded.bundle, payloads, now);
      const mine = recorded.filter((r) => r.set === name && r.at === at);
      const texts = mine.map((r) => {
        const i = payloads.findIndex((p) => p.name === r.payload);
        return JSON.stringify(
          decide(loaded.bundle, payloads[i].payload, facts[i], now, { decisionId: 'recorded', fullScan: r.fullScan }),
        );
      });
      // Compared as text: a reordered key or a changed number format is a change too.
      expect(texts).toEqual(mine.map((r) => JSON.stringify(r.decision)));
    },
    120_000,
  );
});

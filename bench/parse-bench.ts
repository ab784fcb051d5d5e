/**
 * The parse step of a webhook body, before and after strict parsing (docs/decisions/0010-strict-json-parsing.md):
 * `node .bench/build/bench/parse-bench.js` after `npx tsc -p bench/tsconfig.json`.
 * Prints microseconds per parse for the fixture payloads and a 10,000-target payload, for
 * JSON.parse alone (before), parseStrictJson (after) and the alternatives weighed.
 * docs/decisions/0010-strict-json-parsing.md records the figures.
 */
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findDuplicateKey, mayHaveDuplicateKeys } from '../src/payload/duplicate-keys';
import { parseStrictJson } from '../src/payload/parse-strict-json';
import { repoRoot } from './paths';

type Step = (bytes: Buffer) => unknown;

const fatal = new TextDecoder('utf-8', { fatal: true });
const STEPS: Array<[string, Step]> = [
  ['before: JSON.parse(toString)', (b) => JSON.parse(b.toString('utf8'))],
  ['after: parseStrictJson', (b) => parseStrictJson(b)],
  ['  isUtf8 + toString only', (b) => isUtf8(b) && b.toString('utf8')],
  ['  TextDecoder fatal only', (b) => fatal.decode(b)],
  [
    '  JSON.parse + cheap duplicate test',
    (b) => {
      const t = b.toString('utf8');
      return mayHaveDuplicateKeys(t, JSON.parse(t));
    },
  ],
  [
    '  JSON.parse + full duplicate scan',
    (b) => {
      const t = b.toString('utf8');
      JSON.parse(t);
      return findDuplicateKey(t);
    },
  ],
];

/** The spec's preflight example with `n` targets in its attack step. */
function manyTargets(n: number): Buffer {
  const payload = JSON.parse(
    readFileSync(join(repoRoot(), 'src', 'payload', 'spec-execution-example-as-preflight.json'), 'utf8'),
  );
  const step = payload.execution.steps[1];
  const one = step.targetExecutions[0];
  step.targetExecutions = Array.from({ length: n }, (_, i) => ({ ...one, name: `${one.name}-${i}` }));
  step.totalTargetCount = n;
  return Buffer.from(JSON.stringify(payload));
}

/** One timed round: calls until `budgetMs` passed; microseconds per call. */
function microsPerCall(step: Step, bytes: Buffer, budgetMs = 100): number {
  for (let i = 0; i < 5; i++) step(bytes);
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < BigInt(budgetMs) * 1_000_000n) {
    for (let i = 0; i < 10; i++) step(bytes);
    calls += 10;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / 1000 / calls;
}

const dir = join(repoRoot(), 'test', 'fixtures', 'payloads');
const bodies: Array<[string, Buffer]> = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, readFileSync(join(dir, f))]);
bodies.push(['10,000 targets', manyTargets(10000)]);
// The machine is shared: rounds alternate between the steps, and the best round of each counts.
const ROUNDS = 9;
for (const [name, bytes] of bodies) {
  const best = STEPS.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++)
    STEPS.forEach(([, step], i) => {
      best[i] = Math.min(best[i], microsPerCall(step, bytes));
    });
  console.log(`${name} (${bytes.length} bytes), best of ${ROUNDS} rounds`);
  STEPS.forEach(([label], i) =>
    console.log(`  ${label.padEnd(38)} ${best[i].toFixed(2).padStart(10)} us  ${(best[i] / best[0]).toFixed(2)}x`),
  );
}

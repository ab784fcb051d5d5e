import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/payload/types';
import type { SourceFile } from '../../src/policy/compile/yaml-source';
import { examplePayloadFiles, payload } from './fixtures';
import { benchPayloads } from './policy-sets/bench-payloads';
import { generatePolicySet } from './policy-sets/generate-policies';
import { usableRuleKinds } from './policy-sets/usable-rule-kinds';
import { FULL_RUN_ONLY_SET, inFastLane } from './test-lane';

/** The bundled policies as the recording has them (its README): the engine is checked, not the starter set. */
const BUNDLED = join(__dirname, '..', 'fixtures', 'decisions', 'bundled-policies');

/** The names of the policy sets decisions are recorded on (decisionSets). */
export const DECISION_SET_NAMES = ['bundled', '1,000 generated', '10,000 generated'];

/**
 * The policy sets decisions are recorded on: the bundled starter policies (as recorded) and the benchmark's
 * generated 1,000 and 10,000 (not in the fast lane: test/helpers/test-lane.ts).
 */
export function decisionSets(): Array<{ name: string; files: SourceFile[] }> {
  const bundled = readdirSync(BUNDLED)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => ({ file: `policies/${f}`, key: `policies/${f}`, text: readFileSync(join(BUNDLED, f), 'utf8') }));
  const kinds = usableRuleKinds().usable;
  return [
    { name: 'bundled', files: bundled },
    { name: '1,000 generated', files: generatePolicySet(1000, kinds) },
    ...(inFastLane() ? [] : [{ name: '10,000 generated', files: generatePolicySet(FULL_RUN_ONLY_SET, kinds) }]),
  ];
}

/** The payloads: every fixture preflight, the starter suites' run and the benchmark's variants. */
export function decisionPayloads(): Array<{ name: string; payload: PreflightPayload }> {
  const fixtures = examplePayloadFiles()
    .map((f) => ({ name: f, payload: payload<PreflightPayload>(f) }))
    .filter((p) => p.payload.event === 'experiment.execution.preflight');
  const starter = {
    name: 'policies/testdata/run.json',
    payload: JSON.parse(readFileSync(join(BUNDLED, 'testdata', 'run.json'), 'utf8')) as PreflightPayload,
  };
  return [...fixtures, starter, ...benchPayloads()];
}

/** Two moments: a Monday morning and a Saturday night (time windows answer both ways). */
export const DECISION_TIMES = ['2026-01-05T10:00:00.000Z', '2026-01-10T23:30:00.000Z'];

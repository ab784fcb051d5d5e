import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../src/policy/engine/decide';
import type { Decision, PreflightPayload } from '../../src/policy/core/decision';
import { FIXTURES } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

/**
 * Decisions as data: each folder of test/fixtures/cases/ holds a policy set (`policy.yaml`), a
 * payload (`payload.json`) and the whole decision expected for it (`decision.json`; its
 * `evaluatedAt` is the moment decided at). Add a case by adding a folder.
 */
const CASES = join(FIXTURES, 'cases');
const read = (name: string, file: string) => readFileSync(join(CASES, name, file), 'utf8');

test.each(readdirSync(CASES).sort())('%s', (name) => {
  const expected = JSON.parse(read(name, 'decision.json')) as Decision;
  const now = new Date(expected.evaluatedAt);
  const payload = JSON.parse(read(name, 'payload.json')) as PreflightPayload;
  const decision = decide(bundleFrom({ 'policy.yaml': read(name, 'policy.yaml') }, now), payload, {}, now, {
    decisionId: expected.id,
  });
  expect(decision).toEqual(expected);
});

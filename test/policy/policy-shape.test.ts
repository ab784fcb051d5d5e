import { setFlagsFromString } from 'node:v8';
import { usableRuleKinds } from '../helpers/policy-sets/usable-rule-kinds';
import { generatePolicySet } from '../helpers/policy-sets/generate-policies';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { emergencyStopPolicy, withBuiltIns } from '../../src/policy/compile/built-in-policies';
import { generatedSize } from '../helpers/test-lane';
import { createContext } from '../../src/policy/engine/create-context';
import { runScopes } from '../../src/policy/rules/run-scopes';
import { examplePreflight } from '../helpers/policy-sets/bench-payloads';

// V8's own answer to "do these objects share a hidden class" (no timing involved).
setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Distinct hidden classes among the objects. */
function shapes(objects: readonly object[]): number {
  const seen: object[] = [];
  for (const o of objects) if (!seen.some((s) => haveSameMap(s, o))) seen.push(o);
  return seen.length;
}

describe('compiled policies share one shape', () => {
  // A decision reads the same fields of dozens of policies: with one hidden class those reads stay
  // monomorphic. A policy built by spreading a finished object got a class of its own (991 classes
  // for 1,000 policies), which made a full scan four times slower.
  test('every policy of a generated set, and the built-in emergency stop, has the same hidden class', () => {
    const loaded = loadBundle(generatePolicySet(generatedSize(500, 100), usableRuleKinds().usable));
    if (!loaded.ok) throw new Error(loaded.problems[0].message);
    expect(shapes([...loaded.bundle.policies, emergencyStopPolicy()])).toBe(1);
    expect(shapes(loaded.bundle.policies.map((p) => p.passed))).toBe(1);
    expect(shapes(loaded.bundle.policies.map((p) => p.match))).toBe(1);
  });

  test('every rule too, once assembleBundle has numbered the shared checks (a spread copy gave each rule a class of its own)', () => {
    const loaded = loadBundle(generatePolicySet(generatedSize(500, 100), usableRuleKinds().usable));
    if (!loaded.ok) throw new Error(loaded.problems[0].message);
    const rules = loaded.bundle.policies.flatMap((p) => p.rules);
    expect(rules.some((r) => r.answerSlot !== undefined)).toBe(true);
    expect(rules.some((r) => r.answerSlot === undefined)).toBe(true);
    expect(shapes([...rules, ...emergencyStopPolicy().rules])).toBe(1);
    const withBuiltIn = withBuiltIns(loaded.bundle, [emergencyStopPolicy()]);
    expect(shapes(withBuiltIn.policies)).toBe(1);
    expect(shapes(withBuiltIn.policies.flatMap((p) => p.rules))).toBe(1);
  });

  // On Node 26 a frozen array's elements load as fast as a plain one's
  // (docs/decisions/0025-engine-comments-on-node-26.md): the run's scopes and the bundle's
  // policies are frozen.
  test("the run's scopes are frozen; so are the bundle and its policies list", () => {
    const loaded = loadBundle(generatePolicySet(generatedSize(500, 100), usableRuleKinds().usable));
    if (!loaded.ok) throw new Error(loaded.problems[0].message);
    expect(Object.isFrozen(loaded.bundle)).toBe(true);
    expect(Object.isFrozen(loaded.bundle.policies)).toBe(true);
    expect(Object.isFrozen(withBuiltIns(loaded.bundle, [emergencyStopPolicy()]).policies)).toBe(true);
    const ctx = createContext(loaded.bundle, examplePreflight(), {}, new Date(), 'd');
    for (const per of ['team', 'environment'] as const) {
      const scopes = runScopes(ctx, per);
      expect(Array.isArray(scopes) && scopes.length > 0).toBe(true);
      expect(Object.isFrozen(scopes)).toBe(true);
    }
  });
});

import type { Doc } from './policy-set';
import type { Run } from './dimensions';
import { OTHER } from './value-classes';

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Every attribute key a `blastRadius` rule of the documents requires or forbids values of. */
function radiusKeys(docs: readonly Doc[]): string[] {
  const keys = new Set<string>();
  for (const doc of docs)
    for (const rule of asList(doc.rules)) {
      const spec = asObject(asObject(rule).blastRadius);
      for (const k of asList(spec.requireKeys)) if (typeof k === 'string') keys.add(k);
      for (const k of Object.keys(asObject(spec.forbidValues))) keys.add(k);
    }
  return [...keys].sort();
}

/**
 * The class's run with a radius.predicate that pins each of those keys with EQUALS to a value no
 * set writes: a step scoped as a blastRadius rule asks, its listed targets left as the class has them.
 * The run may fall in another predicate class (predicate-classes.ts, record 0038): it is only a
 * second try at a witness when a blastRadius rule keeps the sets' answers alike, and like every
 * witness it is printed only when both whole sets decide it as the class says; no answer rests on it.
 * Undefined when no such rule is written or the run's step has no blast radius.
 */
export function scopedVariant(run: Run, docs: readonly Doc[]): Run | undefined {
  const keys = radiusKeys(docs);
  const [step] = run.payload.execution.steps ?? [];
  if (keys.length === 0 || step === undefined || step.radius === undefined) return undefined;
  const predicate = {
    operator: 'AND',
    predicates: keys.map((key) => ({ key, operator: 'EQUALS', values: [`${OTHER}-${key}`] })),
  };
  const scoped = { ...step, radius: { ...step.radius, predicate } } as typeof step;
  return { ...run, payload: { ...run.payload, execution: { ...run.payload.execution, steps: [scoped] } } };
}

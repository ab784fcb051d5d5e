import { targetCount } from '../core/targeted-step';
import { localClock, localDate, requestLocalTime, weekdayName } from '../time/zone';
import type { EvaluationContext } from '../core/evaluation-context';
import type { ActionStepRef } from '../core/decision';
import { memoKey } from '../core/memo';
import type { Built } from './built';
import { nullPrototypeCopy, type Data } from './null-prototype';

const PAYLOAD_COPY = memoKey<Data>('the payload as conditions read it');
const CONDITION_DATA = memoKey<Map<readonly ActionStepRef[], Built>>('condition data by steps array');

/** The copy of each request's payload, made once however many conditions read it. */
function payloadCopy(ctx: EvaluationContext): Data {
  return ctx.memo.get(PAYLOAD_COPY, () => nullPrototypeCopy(ctx.payload));
}

/** A step's expected target count: `totalTargetCount`, else the targets listed, else 0. */
const targetTotal = (s: ActionStepRef): number => targetCount(s.step)?.count ?? 0;
const targetType = (s: ActionStepRef): string =>
  s.step.radius?.targetType ?? s.step.targetExecutions?.[0]?.type ?? 'unknown';

function targets(steps: readonly ActionStepRef[]) {
  const byType = new Map<string, number>();
  for (const s of steps) byType.set(targetType(s), (byType.get(targetType(s)) ?? 0) + targetTotal(s));
  return {
    total: steps.reduce((sum, s) => sum + targetTotal(s), 0),
    byType: [...byType].map(([type, count]) => ({ type, count })),
  };
}

/** The derived data, each built only when an expression reads it. */
const DERIVED: Record<string, (ctx: EvaluationContext, steps: readonly ActionStepRef[], zone: string) => unknown> = {
  now: (ctx) => ctx.now.toISOString(),
  time: (ctx, _steps, zone) => {
    const local = requestLocalTime(ctx, zone);
    return {
      zone,
      weekday: weekdayName(local),
      isoWeekday: local.weekday,
      hour: local.hour,
      minute: local.minute,
      date: localDate(local),
      local: `${localDate(local)}T${localClock(local)}`,
    };
  },
  environments: (ctx) => ({
    values: ctx.environments.map((e) => e.value),
    names: [...new Set(ctx.environments.flatMap((e) => [...e.keys]))],
  }),
  steps: (ctx, steps) => ({
    count: ctx.execution.steps?.length ?? 0,
    actionCount: steps.length,
    actionIds: steps.flatMap((s) => (s.step.actionId === undefined ? [] : [s.step.actionId])),
    actionKinds: steps.flatMap((s) => (s.step.actionKind === undefined ? [] : [s.step.actionKind])),
    labels: steps.map((s) => s.label),
  }),
  targets: (_facts, steps) => targets(steps),
};

const DERIVED_NAMES = Object.keys(DERIVED);

/** Top-level names of the condition data (docs/policies.md, "condition"). */
export const DATA_ROOTS: readonly string[] = ['payload', 'execution', ...DERIVED_NAMES];

/** What one condition reads, fixed when it compiles: its time zone and the data roots its expression names. */
export interface DataNeeds {
  zone: string;
  roots: ReadonlySet<string> | 'all';
  /** Zone and roots as one text: conditions that need the same share one data object per request. */
  key: string;
}

export function dataNeeds(zone: string, roots: ReadonlySet<string> | 'all' = 'all'): DataNeeds {
  return { zone, roots, key: `${zone}\n${roots === 'all' ? '*' : [...roots].sort().join(',')}` };
}

/**
 * What a request has built, by the steps it was built for (a policy without step filters passes the
 * request's own actionSteps array, so most conditions share one entry), kept in the request's memo.
 * Conditions only read data: json-logic's operations return new values and never write to theirs,
 * so one copy serves them all.
 */
function builtFor(ctx: EvaluationContext, steps: readonly ActionStepRef[]): Built {
  const bySteps = ctx.memo.get(CONDITION_DATA, () => new Map());
  let built = bySteps.get(steps);
  if (!built) bySteps.set(steps, (built = { derived: new Map(), data: new Map() }));
  return built;
}

function derived(
  ctx: EvaluationContext,
  steps: readonly ActionStepRef[],
  zone: string,
  name: string,
  built: Built,
): Data {
  const key = name === 'time' ? `time ${zone}` : name;
  let value = built.derived.get(key);
  if (value === undefined) built.derived.set(key, (value = nullPrototypeCopy(DERIVED[name](ctx, steps, zone))));
  return value;
}

/**
 * What a condition's `var` paths read: the payload (`payload`, `execution`) and data derived
 * from it for the policy's steps and the rule's time zone. Objects have no prototype. Only the
 * roots the expression reads are built, each once per request, and conditions with the same needs
 * get the same data object.
 */
export function conditionData(ctx: EvaluationContext, steps: readonly ActionStepRef[], needs: DataNeeds): Data {
  const built = builtFor(ctx, steps);
  const ready = built.data.get(needs.key);
  if (ready !== undefined) return ready;
  const { zone, roots } = needs;
  const wanted = (name: string) => roots === 'all' || roots.has(name);
  const data = Object.create(null) as { [key: string]: Data };
  for (const name of DERIVED_NAMES) if (wanted(name)) data[name] = derived(ctx, steps, zone, name, built);
  if (wanted('payload') || wanted('execution')) {
    const payload = payloadCopy(ctx) as { [key: string]: Data };
    data.payload = payload;
    data.execution = payload.execution ?? null;
  }
  built.data.set(needs.key, data);
  return data;
}

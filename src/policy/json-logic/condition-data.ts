import { localTime } from '../time/zone';
import type { ActionStepRef, Facts } from '../types';
import { nullPrototypeCopy, type Data } from './null-prototype';

/** The copy of each request's payload, made once however many conditions read it. */
const payloadCopies = new WeakMap<Facts, Data>();

function payloadCopy(facts: Facts): Data {
  let copy = payloadCopies.get(facts);
  if (copy === undefined) {
    copy = nullPrototypeCopy(facts.payload);
    payloadCopies.set(facts, copy);
  }
  return copy;
}

/** A step's expected target count: `totalTargetCount`, else the targets listed. */
const targetCount = (s: ActionStepRef): number => s.step.totalTargetCount ?? s.step.targetExecutions?.length ?? 0;
const targetType = (s: ActionStepRef): string => s.step.radius?.targetType ?? s.step.targetExecutions?.[0]?.type ?? 'unknown';

function targets(steps: readonly ActionStepRef[]) {
  const byType = new Map<string, number>();
  for (const s of steps) byType.set(targetType(s), (byType.get(targetType(s)) ?? 0) + targetCount(s));
  return {
    total: steps.reduce((sum, s) => sum + targetCount(s), 0),
    byType: [...byType].map(([type, count]) => ({ type, count })),
  };
}

/**
 * What a condition's `var` paths read (documented in docs/policies.md, "condition"):
 * the payload (`payload`, `execution`) and facts derived from it for the policy's steps and
 * the rule's time zone. Objects have no prototype.
 */
export function conditionData(facts: Facts, steps: readonly ActionStepRef[], zone: string): Data {
  const payload = payloadCopy(facts) as { [key: string]: Data };
  const local = localTime(facts.now, zone);
  const derived = nullPrototypeCopy({
    now: facts.now.toISOString(),
    time: {
      zone, weekday: local.toFormat('ccc'), isoWeekday: local.weekday, hour: local.hour, minute: local.minute,
      date: local.toFormat('yyyy-MM-dd'), local: local.toFormat("yyyy-MM-dd'T'HH:mm"),
    },
    environments: {
      values: facts.environments.map((e) => e.value),
      names: [...new Set(facts.environments.flatMap((e) => [...e.keys]))],
    },
    steps: {
      count: facts.execution.steps?.length ?? 0,
      actionCount: steps.length,
      actionIds: steps.flatMap((s) => (s.step.actionId === undefined ? [] : [s.step.actionId])),
      actionKinds: steps.flatMap((s) => (s.step.actionKind === undefined ? [] : [s.step.actionKind])),
      labels: steps.map((s) => s.label),
    },
    targets: targets(steps),
  }) as { [key: string]: Data };
  derived.payload = payload;
  derived.execution = payload.execution ?? null;
  return derived;
}

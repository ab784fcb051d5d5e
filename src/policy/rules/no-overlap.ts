import { defineRule } from '../core/rule-kind';
import { findings } from '../core/checked';
import type { Violation } from '../core/decision';
import type { InProgressFacts } from '../facts/state-facts';
import { type Footprint, footprintOf, unlistedOf } from '../engine/run-footprint';
import type { Need } from '../facts/need';
import { stepName } from '../engine/step-text';
import { notLoaded, stateFact } from './state-fact';

interface Spec {
  by?: string[];
}

/** At most this many runs in the way are named, each with at most this many shared targets. */
const MAX_RUNS = 3;
const MAX_SHARED = 3;

const NO_IDS: readonly string[] = Object.freeze([]);

/** The ids listed under one key of the fact (never a key Object.prototype has). */
const idsAt = (byKey: Record<string, string[]> | undefined, key: string): readonly string[] =>
  byKey !== undefined && Object.hasOwn(byKey, key) ? byKey[key] : NO_IDS;

const isEmpty = (byKey: Record<string, unknown> | undefined): boolean => {
  for (const key in byKey) if (Object.hasOwn(byKey, key)) return false;
  return true;
};

/** A step that does not list all its targets: what it shares with runs in progress is not known. */
const cannotRuleOut = ({ ref, listed, expected }: Footprint['unlisted'][number]): Violation => ({
  reason: `cannot decide: ${stepName(ref)} lists ${listed} of its ${expected ?? 'unknown number of'} targets, so what it shares with runs in progress is not known`,
  step: ref,
  status: 'undecidable',
});

function describeRun(id: string, facts: InProgressFacts): string {
  const run = Object.hasOwn(facts.runs, id) ? facts.runs[id] : {};
  const who = [
    run.experimentKey && `experiment ${run.experimentKey}`,
    `team ${run.team ?? 'unknown'}`,
    run.since && `since ${run.since}`,
  ].filter(Boolean);
  return `run ${id} (${who.join(', ')})`;
}

const listed = (shared: readonly string[]): string =>
  shared.slice(0, MAX_SHARED).join(', ') +
  (shared.length > MAX_SHARED ? `, and ${shared.length - MAX_SHARED} more` : '');

/**
 * `- noOverlap: {by: [host.hostname, k8s.node.name]}`: no run while another run in progress, of any
 * team, acts on the same target, or on targets sharing a value of one of the `by` attribute keys
 * (the same host, node, zone, deployment...), of the steps the policy is scoped to. The runs in progress are the guard's: every run the
 * gate allowed until its end event, the Platform API or EXECUTION_TTL_SECONDS ends it. The run
 * being preflighted never counts against itself.
 */
export const noOverlapRule = defineRule<Spec>({
  key: 'noOverlap',
  description:
    'Deny a run whose targets overlap those of a run in progress (any team): the same target, or the same value of the attribute keys in `by`.',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      by: {
        type: 'array',
        uniqueItems: true,
        maxItems: 20,
        items: { type: 'string', minLength: 1, syntax: 'trimmed' },
        description:
          'Attribute keys whose shared value is an overlap, e.g. [host.hostname, k8s.node.name, k8s.zone, k8s.deployment]. The same target (type and name) always is.',
      },
    },
  },
  compile(spec) {
    const by = spec.by ?? [];
    const needs: Need[] = [
      { kind: 'in-progress' },
      ...by.map((attribute): Need => ({ kind: 'in-progress', attribute })),
    ];
    return {
      needs,
      // The steps the policy is scoped to (match/exclude actionIds, actionKinds), as every step rule reads them.
      check: findings(({ ctx, steps }) => {
        const facts = stateFact(ctx, 'inProgress');
        if (!facts) return [notLoaded('runs in progress')];
        // The service gathers only what this run shares: usually nothing, and then nothing to compare.
        const nothingShared = isEmpty(facts.targets) && by.every((key) => isEmpty(facts.attributes[key]));
        if (nothingShared) return unlistedOf(steps).map(cannotRuleOut);
        const footprint = footprintOf(steps, by);
        const self = ctx.execution.id === undefined ? undefined : String(ctx.execution.id);
        // What each other run shares with this one, in the order met.
        const shared = new Map<string, string[]>();
        const note = (ids: readonly string[], what: string) => {
          for (const id of ids) {
            if (id === self) continue;
            const list = shared.get(id);
            if (list === undefined) shared.set(id, [what]);
            else list.push(what);
          }
        };
        for (const target of footprint.targets) note(idsAt(facts.targets, target), `target ${target}`);
        for (const key of by) {
          const byValue = Object.hasOwn(facts.attributes, key) ? facts.attributes[key] : undefined;
          for (const value of footprint.attributes.get(key) ?? []) note(idsAt(byValue, value), `${key}=${value}`);
        }
        const out: Violation[] = [];
        if (shared.size > 0) {
          // One finding: the runs in the way (a few), each with what it shares (a few).
          const named = [...shared]
            .slice(0, MAX_RUNS)
            .map(([id, what]) => `${describeRun(id, facts)} on ${listed(what)}`);
          const more = shared.size > MAX_RUNS ? `; and ${shared.size - MAX_RUNS} more runs` : '';
          out.push({
            reason: `${shared.size === 1 ? 'a run' : `${shared.size} runs`} in progress share${shared.size === 1 ? 's' : ''} targets with this run: ${named.join('; ')}${more}`,
            value: [...shared.keys()].slice(0, MAX_RUNS).join(', '),
          });
        }
        out.push(...footprint.unlisted.map(cannotRuleOut));
        return out;
      }),
    };
  },
});

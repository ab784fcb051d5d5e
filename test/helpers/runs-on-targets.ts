import type { PreflightPayload, Target } from '../../src/payload/types';
import { preflightWith } from './fixtures';

/** The host target type, as Steadybit's host extension names it. */
export const HOST = 'com.steadybit.extension_host.host';

/** A host target with these attributes (`{'host.hostname': 'node-a'}`). */
export const hostTarget = (name: string, attributes: Record<string, string> = {}): Target => ({
  type: HOST,
  name,
  attributes: Object.entries(attributes).map(([key, value]) => ({ key, value })),
});

/** A host target on the host `hostname` (its `host.hostname` attribute). */
export const onHost = (name: string, hostname: string): Target => hostTarget(name, { 'host.hostname': hostname });

/** The spec example with its attack step on exactly these targets (listed, and counted as all it expects). */
export const attacking = (targets: Target[], change: (p: PreflightPayload) => void = () => {}): PreflightPayload =>
  preflightWith((p) => {
    const step = p.execution.steps?.[1];
    if (step) {
      step.targetExecutions = targets;
      step.totalTargetCount = targets.length;
    }
    change(p);
  });

/** Execution `id` of `team` (experiment `<team>-<id>`) attacking these targets. */
export const runOf = (id: number, team: string, targets: Target[]): PreflightPayload =>
  attacking(targets, (p) => {
    p.execution.id = id;
    p.execution.teamKey = team;
    p.execution.experimentKey = `${team}-${id}`;
  });

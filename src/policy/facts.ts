import type { PreflightPayload, Step } from '../payload/types';
import type { PolicyBundle } from './compiled';
import { runEnvironments } from './environments';
import type { ActionStepRef, Facts, StateSnapshot } from './types';

function isActionStep(step: Step): boolean {
  return step.actionId !== undefined || step.actionKind !== undefined || step.radius !== undefined || step.targetExecutions !== undefined;
}

/** Every action step of the run, including the actions nested in service-validation steps. */
export function actionSteps(steps: readonly Step[] | undefined): ActionStepRef[] {
  const out: ActionStepRef[] = [];
  (steps ?? []).forEach((step, i) => {
    const path = `steps[${i}]`;
    if (isActionStep(step)) out.push({ path, label: step.customLabel ?? step.actionId ?? path, step });
    (step.validations ?? []).forEach((v, j) => {
      const vpath = `${path}.validations[${j}]`;
      out.push({ path: vpath, label: v.customLabel ?? v.actionId ?? vpath, step: v });
    });
  });
  return out;
}

export interface FactOptions { now: Date; decisionId: string; state?: StateSnapshot }

/** The facts every rule sees, computed once per request. */
export function buildFacts(bundle: PolicyBundle, payload: PreflightPayload, opts: FactOptions): Facts {
  return {
    payload,
    execution: payload.execution,
    now: opts.now,
    environments: runEnvironments(payload.execution, bundle.aliases),
    actionSteps: actionSteps(payload.execution.steps),
    decisionId: opts.decisionId,
    revision: bundle.revision,
    state: opts.state,
  };
}

import type { PreflightPayload, Step } from '../payload/types';
import type { PolicyBundle } from './compiled';
import { runEnvironments } from './environments';
import type { ActionStepRef, Facts, RequestCell, RuleAnswer, StateSnapshot } from './types';

/** Step types that are known not to run an action themselves (a service validation's actions are nested). */
const NOT_ACTIONS = new Set(['WAIT', 'SERVICE-VALIDATION']);

/**
 * Whether a step runs an action: it names one or its targets, or it says it is a step type other
 * than a wait or a service validation (an unknown step type counts as an action: fail closed).
 */
function isActionStep(step: Step): boolean {
  if (step.actionId !== undefined || step.actionKind !== undefined || step.radius !== undefined || step.targetExecutions !== undefined || step.totalTargetCount !== undefined) return true;
  return typeof step.stepType === 'string' && !NOT_ACTIONS.has(step.stepType.toUpperCase());
}

/** Every action step of the run, including the actions nested in service-validation steps (at any depth). */
export function actionSteps(steps: readonly Step[] | undefined, parent = '', out: ActionStepRef[] = []): ActionStepRef[] {
  (steps ?? []).forEach((step, i) => {
    const path = parent === '' ? `steps[${i}]` : `${parent}.validations[${i}]`;
    // A step nested in a service validation is always one of its actions.
    if (parent !== '' || isActionStep(step)) out.push({ path, label: step.customLabel ?? step.actionId ?? path, step });
    if (Array.isArray(step.validations)) actionSteps(step.validations, path, out);
  });
  return out;
}

export interface FactOptions { now: Date; decisionId: string; state?: StateSnapshot }

/** The last request number handed out (Facts.request); 0 is never one, so a new RequestCell matches no request. */
let lastRequest = 0;

/** A cell for a shared part's per-request answer; it holds `initial` until a request writes it. */
export function requestCell<T>(initial: T): RequestCell<T> {
  return { request: 0, value: initial };
}

/** A rule check's cell (RuleAnswer): no request has asked it yet. */
export function ruleAnswer(): RuleAnswer {
  return { request: 0, value: [], failed: false, failure: undefined };
}

/** The facts every rule sees, computed once per request. */
export function buildFacts(bundle: PolicyBundle, payload: PreflightPayload, opts: FactOptions): Facts {
  return {
    payload,
    execution: payload.execution,
    now: opts.now,
    environments: runEnvironments(payload.execution, bundle.aliases),
    actionSteps: actionSteps(payload.execution.steps),
    upperCased: { teamKey: payload.execution.teamKey?.toUpperCase(), createdVia: payload.execution.createdVia?.toUpperCase() },
    memo: {},
    request: ++lastRequest,
    decisionId: opts.decisionId,
    revision: bundle.revision,
    state: opts.state,
  };
}

/** The decision's time as ISO text, e.g. `2026-01-05T10:00:00.000Z`: once per request (the decision states it too). */
export function nowText(facts: Facts): string {
  return (facts.memo.nowText ??= facts.now.toISOString());
}

import type { PreflightPayload, Step } from '../../payload/types';
import type { SignalRead } from '../../signals/signal-violation';
import { runEnvironments, type EnvironmentDirectory } from './environments';
import type { Facts } from '../facts/facts';
import type { Built } from '../json-logic/built';
import type { Data } from '../json-logic/null-prototype';
import type { Path } from '../predicate/predicate';
import type { TemplateValues } from '../loading/template';
import type { LocalTime } from '../time/wall-clock';
import type { ActionStepRef, RunEnvironment, RunScopes, Violation } from '../types';

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

/**
 * What the parts of one decision share, each built by the first part that needs it. Memos of
 * per-request objects live here, not in WeakMaps keyed by the request's objects
 * (docs/decisions/0004-per-evaluation-context.md).
 */
export interface ContextMemo {
  /** The request's message and modification placeholders ({{team}}, {{now}}, ...). */
  templateValues?: TemplateValues;
  /** Whether a run's environment has a Steadybit name that cannot be known (scopes may then not decide). */
  unknownEnvironmentName?: boolean;
  /** The run's environments as skip reasons name them, e.g. `4f1c... (production)`. */
  environmentText?: string;
  /** `now` as ISO text: the decision's evaluatedAt and the {{now}} placeholder. */
  nowText?: string;
  /** The run's action steps as skip reasons list them. */
  stepLabels?: string;
  /** The run's scopes per team and per environment, as the state rules read them (runScopes). */
  teamScopes?: RunScopes;
  environmentScopes?: RunScopes;
  /** The request's `now` on the wall clock of each time zone asked for, and its description. */
  localTimes?: Map<string, LocalTime>;
  localTexts?: Map<string, string>;
  /** The ways through each radius.predicate object of the payload (blastRadius). */
  predicatePaths?: Map<object, Path[]>;
  /** The payload as conditions read it, and the condition data built per steps array. */
  payloadCopy?: Data;
  conditionData?: Map<readonly ActionStepRef[], Built>;
  /** What each signal rule's check read in this decision, by check (RuleCheck.check): explanations. */
  signalReads?: Map<unknown, SignalRead[]>;
}

/** A shared rule check's answer in this decision, or the error it threw (every policy sharing it then fails closed on the same error). */
export type RuleAnswer = { ok: true; violations: Violation[] } | { ok: false; failure: unknown };

/**
 * One decision's own state: the run as the rules read it, the facts gathered for it, and every memo
 * and answer its policies share (like OPA's per-query caches or json-rules-engine's almanac). Made
 * by decide() for one decision and dropped with it; the compiled bundle is never written to.
 */
export interface EvaluationContext {
  payload: PreflightPayload;
  execution: PreflightPayload['execution'];
  now: Date;
  /** Everything from outside the payload, gathered before the decision. */
  facts: Facts;
  /** The environments the run touches: `execution.environment` and the override, if any. */
  environments: RunEnvironment[];
  actionSteps: ActionStepRef[];
  /** The run's team key and createdVia upper-cased, as scopes compare them: once per decision, not per policy. */
  upperCased: { teamKey?: string; createdVia?: string };
  decisionId: string;
  revision: string;
  memo: ContextMemo;
  /** Shared rule checks' answers for the run's whole list of action steps, by check (RuleCheck.check). */
  ruleAnswers: Map<unknown, RuleAnswer>;
  /** Shared scopes' runMiss answers, by scope (null: the run is in scope). */
  scopeMisses: Map<object, string | null>;
}

/** The context of one decision on `payload` with `bundle`, at `now`. */
export function createContext(bundle: EnvironmentDirectory & { revision: string }, payload: PreflightPayload, facts: Facts, now: Date, decisionId: string): EvaluationContext {
  return {
    payload,
    execution: payload.execution,
    now,
    facts,
    environments: runEnvironments(payload.execution, bundle, facts.environments),
    actionSteps: actionSteps(payload.execution.steps),
    upperCased: { teamKey: payload.execution.teamKey?.toUpperCase(), createdVia: payload.execution.createdVia?.toUpperCase() },
    decisionId,
    revision: bundle.revision,
    memo: {},
    ruleAnswers: new Map(),
    scopeMisses: new Map(),
  };
}

/** The decision's time as ISO text, e.g. `2026-01-05T10:00:00.000Z`: once per decision (the decision states it too). */
export function nowText(ctx: EvaluationContext): string {
  return (ctx.memo.nowText ??= ctx.now.toISOString());
}

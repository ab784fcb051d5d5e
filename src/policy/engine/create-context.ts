import type { PreflightPayload } from '../../payload/types';
import type { EnvironmentDirectory } from '../core/environment-directory';
import type { EvaluationContext, RuleAnswer } from '../core/evaluation-context';
import type { PolicyBundle } from '../core/compiled';
import { Memo } from '../core/memo';
import type { Facts } from '../facts/facts';
import { actionSteps } from './action-steps';
import { runEnvironments } from './environments';

/** The context of one decision on `payload` with `bundle`, at `now`. */
export function createContext(
  bundle: EnvironmentDirectory & Pick<PolicyBundle, 'revision' | 'sharedChecks'>,
  payload: PreflightPayload,
  facts: Facts,
  now: Date,
  decisionId: string,
): EvaluationContext {
  return {
    payload,
    execution: payload.execution,
    now,
    facts,
    environments: runEnvironments(payload.execution, bundle, facts.environments),
    actionSteps: actionSteps(payload.execution.steps),
    upperCased: {
      teamKey: payload.execution.teamKey?.toUpperCase(),
      createdVia: payload.execution.createdVia?.toUpperCase(),
    },
    decisionId,
    revision: bundle.revision,
    memo: new Memo(),
    ruleAnswers: new Array<RuleAnswer | undefined>(bundle.sharedChecks),
  };
}

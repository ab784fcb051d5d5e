import type { ActionStepRef } from '../core/decision';

/** How a message names a step: its label, and where it sits when the label is not the path. */
export function stepName(ref: ActionStepRef): string {
  return ref.label === ref.path ? `step ${ref.path}` : `step "${ref.label}" (${ref.path})`;
}

/** The action a step runs, for messages: `com.steadybit.extension_container.stress_cpu` or `(no actionId)`. */
export function actionOf(ref: ActionStepRef): string {
  return ref.step.actionId ?? '(no actionId)';
}

"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stepName = stepName;
exports.actionOf = actionOf;
/** How a message names a step: its label, and where it sits when the label is not the path. */
function stepName(ref) {
    return ref.label === ref.path ? `step ${ref.path}` : `step "${ref.label}" (${ref.path})`;
}
/** The action a step runs, for messages: `com.steadybit.extension_container.stress_cpu` or `(no actionId)`. */
function actionOf(ref) {
    return ref.step.actionId ?? '(no actionId)';
}
//# sourceMappingURL=step-text.js.map
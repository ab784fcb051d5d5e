"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.actionSteps = actionSteps;
/** Step types that are known not to run an action themselves (a service validation's actions are nested). */
const NOT_ACTIONS = new Set(['WAIT', 'SERVICE-VALIDATION']);
/**
 * Whether a step runs an action: it names one or its targets, or it says it is a step type other
 * than a wait or a service validation (an unknown step type counts as an action: fail closed).
 */
function isActionStep(step) {
    if (step.actionId !== undefined ||
        step.actionKind !== undefined ||
        step.radius !== undefined ||
        step.targetExecutions !== undefined ||
        step.totalTargetCount !== undefined)
        return true;
    return typeof step.stepType === 'string' && !NOT_ACTIONS.has(step.stepType.toUpperCase());
}
/** Every action step of the run, including the actions nested in service-validation steps (at any depth). */
function actionSteps(steps, parent = '', out = []) {
    (steps ?? []).forEach((step, i) => {
        const path = parent === '' ? `steps[${i}]` : `${parent}.validations[${i}]`;
        // A step nested in a service validation is always one of its actions.
        if (parent !== '' || isActionStep(step))
            out.push({ path, label: step.customLabel ?? step.actionId ?? path, step });
        if (Array.isArray(step.validations))
            actionSteps(step.validations, path, out);
    });
    return out;
}
//# sourceMappingURL=action-steps.js.map
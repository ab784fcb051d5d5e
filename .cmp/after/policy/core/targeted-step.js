"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isTargeted = isTargeted;
exports.targetCount = targetCount;
exports.targetTypeOf = targetTypeOf;
/**
 * Whether a step acts on targets: it has a blast radius, expected targets or a target count, or it is
 * an ATTACK, or its kind is not sent (unknown never counts as "no targets"). CHECK, LOAD_TEST, OTHER
 * and BASIC steps without any of these are not targeted.
 */
function isTargeted(step) {
    if (step.radius !== undefined || step.targetExecutions !== undefined || step.totalTargetCount !== undefined)
        return true;
    return step.actionKind === undefined || step.actionKind.toUpperCase() === 'ATTACK';
}
/**
 * How many targets a step expects: `totalTargetCount`, else the number of `targetExecutions`
 * listed; undefined when the payload carries neither.
 */
function targetCount(step) {
    if (typeof step.totalTargetCount === 'number')
        return { count: step.totalTargetCount, from: 'totalTargetCount' };
    if (Array.isArray(step.targetExecutions))
        return { count: step.targetExecutions.length, from: 'targetExecutions' };
    return undefined;
}
/** The target type a step acts on: `radius.targetType`, else the one type all its listed targets share. */
function targetTypeOf(step) {
    if (step.radius?.targetType)
        return step.radius.targetType;
    const types = new Set((step.targetExecutions ?? []).map((t) => t.type));
    const [only] = [...types];
    return types.size === 1 && typeof only === 'string' ? only : undefined;
}
//# sourceMappingURL=targeted-step.js.map
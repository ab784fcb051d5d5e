"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PolicyLoadError = void 0;
exports.formatProblem = formatProblem;
function formatProblem(p) {
    const where = p.path ? `${p.path}: ` : '';
    return `${p.file}:${p.line}:${p.col} ${p.severity === 'warning' ? 'warning: ' : ''}${where}${p.message}`;
}
/** Thrown by start-up code when a policy set cannot be loaded; carries every problem. */
class PolicyLoadError extends Error {
    problems;
    constructor(problems) {
        super(`invalid policy set:\n${problems
            .filter((p) => p.severity === 'error')
            .map(formatProblem)
            .join('\n')}`);
        this.problems = problems;
        this.name = 'PolicyLoadError';
    }
}
exports.PolicyLoadError = PolicyLoadError;
//# sourceMappingURL=load-error.js.map
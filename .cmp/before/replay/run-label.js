"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RUN_URL_PLACEHOLDERS = void 0;
exports.runLabel = runLabel;
exports.runUrl = runUrl;
/** `execution 4711 (experiment ADM-12, team ADM, environment prod)`: how a person finds the run in Steadybit. */
function runLabel(run) {
    const parts = [
        run.experimentKey && `experiment ${run.experimentKey}`,
        run.teamKey && `team ${run.teamKey}`,
        run.environment && `environment ${run.environment}`,
    ].filter(Boolean);
    return `${run.executionId ? `execution ${run.executionId}` : `decision ${run.decisionId}`}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}
/** A run's link from a `--run-url` template: {executionId}, {experimentKey}, {teamKey}, {environment}, {decisionId}. */
function runUrl(template, run) {
    if (!template)
        return undefined;
    let missing = false;
    const url = template.replace(/\{(executionId|experimentKey|teamKey|environment|decisionId)\}/g, (_m, name) => {
        const value = run[name];
        if (value === undefined)
            missing = true;
        return encodeURIComponent(value ?? '');
    });
    return missing ? undefined : url;
}
/** The placeholders --run-url knows, for its check and its help. */
exports.RUN_URL_PLACEHOLDERS = ['executionId', 'experimentKey', 'teamKey', 'environment', 'decisionId'];
//# sourceMappingURL=run-label.js.map
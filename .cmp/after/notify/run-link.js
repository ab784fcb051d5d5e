"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RUN_LINK_PLACEHOLDERS = exports.defaultRunUrl = void 0;
exports.runLink = runLink;
/**
 * The run view in Steadybit, when STEADYBIT_URL is set: NOTIFY_RUN_URL's default. Override it
 * (NOTIFY_RUN_URL) when the platform's UI lives at another address or path.
 */
const defaultRunUrl = (steadybitUrl) => steadybitUrl ? `${steadybitUrl.replace(/\/+$/, '')}/experiments/{experimentKey}/executions/{executionId}` : undefined;
exports.defaultRunUrl = defaultRunUrl;
exports.RUN_LINK_PLACEHOLDERS = ['executionId', 'experimentKey', 'teamKey', 'environment', 'decisionId'];
/** The template filled in (values URL-encoded); no link when a placeholder it uses has no value. */
function runLink(template, run, decisionId) {
    if (!template)
        return undefined;
    const values = {
        executionId: run.executionId,
        experimentKey: run.experimentKey,
        teamKey: run.team,
        environment: run.environment,
        decisionId,
    };
    let missing = false;
    const url = template.replace(/\{(\w+)\}/g, (_m, name) => {
        const value = values[name];
        if (value === undefined)
            missing = true;
        return encodeURIComponent(String(value ?? ''));
    });
    return missing ? undefined : url;
}
//# sourceMappingURL=run-link.js.map
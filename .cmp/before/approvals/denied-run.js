"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runScopeOf = runScopeOf;
const object = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});
const text = (v) => (typeof v === 'string' && v !== '' ? v : undefined);
/** The scope of a run read leniently from an execution object (a recorded payload, or one just validated). */
function runScopeOf(executionValue) {
    const execution = object(executionValue);
    const environments = [text(execution.environment), text(object(execution.overrides).environment)].filter((e) => e !== undefined);
    const version = execution.experimentVersion;
    const by = object(execution.createdBy);
    const createdBy = text(by.username) !== undefined || text(by.email) !== undefined
        ? { username: text(by.username), email: text(by.email) }
        : undefined;
    return {
        experimentKey: text(execution.experimentKey),
        environments: [...new Set(environments)],
        experimentVersion: typeof version === 'number' || (typeof version === 'string' && version !== '') ? String(version) : undefined,
        createdBy,
    };
}
//# sourceMappingURL=denied-run.js.map
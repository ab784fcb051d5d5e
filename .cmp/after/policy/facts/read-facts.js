"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describeFactErrors = void 0;
exports.readStateFacts = readStateFacts;
exports.readEnvironmentFacts = readEnvironmentFacts;
exports.readTeamFacts = readTeamFacts;
exports.readFacts = readFacts;
const field_errors_1 = require("../../validation/field-errors");
const facts_schema_1 = require("./generated/facts-schema");
const field_path_1 = require("../../validation/field-path");
const SCOPE_KEY = /^(?:(?:team|environment):\S|service:[^=\s]+=\S)/;
const SCOPE_KEY_TEXT = 'a scope key is "team:<team key>", "environment:<environment name or id>" or "service:<attribute>=<value>"';
const RUN_LISTS = ['running', 'ended', 'started'];
/** Scope keys the schema cannot check: `team:`, `environment:` or `service:<attribute>=` and a value, lower-case (as the state store keeps them). */
function scopeKeyErrors(state, at) {
    const errors = [];
    for (const list of RUN_LISTS) {
        for (const key of Object.keys(state[list] ?? {})) {
            const path = (0, field_path_1.pathText)([...at, list, key]);
            if (!SCOPE_KEY.test(key))
                errors.push({ path, message: SCOPE_KEY_TEXT });
            else if (key !== key.toLowerCase())
                errors.push({ path, message: `scope keys are lower-case: write "${key.toLowerCase()}"` });
        }
    }
    return errors;
}
/** Execution ids the overlap part lists but does not describe in its `runs` (schema cannot check this). */
function inProgressErrors(state, at) {
    const part = state.inProgress;
    if (part === undefined)
        return [];
    const errors = [];
    const check = (ids, path) => {
        for (const [i, id] of ids.entries())
            if (!Object.hasOwn(part.runs, id))
                errors.push({
                    path: (0, field_path_1.pathText)([...at, 'inProgress', ...path, String(i)]),
                    message: `run ${id} is not described in inProgress.runs`,
                });
    };
    for (const [target, ids] of Object.entries(part.targets))
        check(ids, ['targets', target]);
    for (const [key, byValue] of Object.entries(part.attributes))
        for (const [value, ids] of Object.entries(byValue))
            check(ids, ['attributes', key, value]);
    return errors;
}
/** The runs with every id as text: a numeric execution id (as payloads carry it) is the same run as its decimal text. */
function withTextIds(runs) {
    if (runs === undefined)
        return undefined;
    return Object.fromEntries(Object.entries(runs).map(([key, list]) => [key, list.map((r) => ({ ...r, id: String(r.id) }))]));
}
function normalised(state) {
    const out = {};
    if (state.emergencyStop !== undefined)
        out.emergencyStop = state.emergencyStop;
    for (const list of RUN_LISTS)
        if (state[list] !== undefined)
            out[list] = withTextIds(state[list]);
    // The use counts of exceptions with maxUses, or why the service could not count them (docs/approvals.md).
    if (state.exceptionUses !== undefined)
        out.exceptionUses = state.exceptionUses;
    if (state.exceptionUsesUnknown !== undefined)
        out.exceptionUsesUnknown = state.exceptionUsesUnknown;
    if (state.inProgress !== undefined)
        out.inProgress = state.inProgress;
    return out;
}
/** State facts from JSON (`eval --state`, a suite case's `state:`), checked: every problem named by its path. */
function readStateFacts(value) {
    if (!(0, facts_schema_1.validateState)(value))
        return { ok: false, errors: (0, field_errors_1.toFieldErrors)(facts_schema_1.validateState.errors, (0, field_errors_1.validated)(facts_schema_1.validateState, value)) };
    const state = value;
    const errors = [...scopeKeyErrors(state, []), ...inProgressErrors(state, [])];
    return errors.length > 0 ? { ok: false, errors } : { ok: true, facts: normalised(state) };
}
/** Environment names from JSON (`eval --environments`, a suite case's `environments:`), checked. */
function readEnvironmentFacts(value) {
    if (!(0, facts_schema_1.validateEnvironments)(value))
        return { ok: false, errors: (0, field_errors_1.toFieldErrors)(facts_schema_1.validateEnvironments.errors, (0, field_errors_1.validated)(facts_schema_1.validateEnvironments, value)) };
    return { ok: true, facts: value };
}
/** Team members from JSON (`eval --teams`): `{"SRE": {"members": [{"username": ..., "email": ...}]}}`, checked. */
function readTeamFacts(value) {
    if (!(0, facts_schema_1.validateTeams)(value))
        return { ok: false, errors: (0, field_errors_1.toFieldErrors)(facts_schema_1.validateTeams.errors, (0, field_errors_1.validated)(facts_schema_1.validateTeams, value)) };
    return { ok: true, facts: value };
}
/** Facts from JSON (a recorded decision's, every part), checked the same way. */
function readFacts(value) {
    if (!(0, facts_schema_1.validateFacts)(value))
        return { ok: false, errors: (0, field_errors_1.toFieldErrors)(facts_schema_1.validateFacts.errors, (0, field_errors_1.validated)(facts_schema_1.validateFacts, value)) };
    const facts = value;
    const read = {
        ...(facts.signals === undefined ? {} : { signals: facts.signals }),
        ...(facts.environments === undefined ? {} : { environments: facts.environments }),
        ...(facts.teams === undefined ? {} : { teams: facts.teams }),
    };
    if (facts.state === undefined)
        return { ok: true, facts: read };
    const errors = [...scopeKeyErrors(facts.state, ['state']), ...inProgressErrors(facts.state, ['state'])];
    return errors.length > 0 ? { ok: false, errors } : { ok: true, facts: { state: normalised(facts.state), ...read } };
}
/** `path: message; path: message`, as usage errors print them. */
const describeFactErrors = (errors) => errors.map((e) => `${e.path}: ${e.message}`).join('; ');
exports.describeFactErrors = describeFactErrors;
//# sourceMappingURL=read-facts.js.map
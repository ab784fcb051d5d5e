"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.needSchema = exports.factsSchema = exports.teamFactsShape = exports.environmentFactsShape = exports.stateFactsSchema = exports.stateFactsShape = void 0;
const signal_facts_schema_1 = require("./signal-facts-schema");
const state_facts_1 = require("./state-facts");
/**
 * The JSON Schema of the facts (facts.ts), what `eval --state`, a suite case's `state:` and a
 * recorded decision hold. `preflight-gate schema --state` prints the state part, docs/state.md
 * explains it with an example per rule kind. Scope keys are checked by readStateFacts.
 */
function runs(what, ended) {
    return {
        type: 'object',
        description: `${what}, by scope key: "team:<team key>", "environment:<environment name or id>" or (ended runs, cool-downs per attacked service) "service:<attribute>=<value>", lower-case.`,
        additionalProperties: {
            type: 'array',
            items: {
                type: 'object',
                additionalProperties: false,
                required: ended ? ['id', 'atMs', 'state'] : ['id', 'atMs'],
                properties: {
                    id: {
                        anyOf: [
                            { type: 'string', minLength: 1 },
                            { type: 'integer', minimum: 0 },
                        ],
                        description: 'The execution id; a number is the same run as its decimal text (payloads carry numbers).',
                    },
                    atMs: {
                        type: 'integer',
                        minimum: 0,
                        description: ended
                            ? 'When it ended, in milliseconds since 1970-01-01T00:00:00Z.'
                            : 'When it started, in milliseconds since 1970-01-01T00:00:00Z.',
                    },
                    state: {
                        type: 'string',
                        enum: [...state_facts_1.END_STATES],
                        description: 'How it ended (cool-downs count the states in `after`).',
                    },
                },
            },
        },
    };
}
const executionIds = {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    description: 'Execution ids of runs in progress, each described in `runs`.',
};
/** The runs in progress sharing the run's targets (noOverlap rules); every id listed is described in `runs`. */
const inProgress = {
    type: 'object',
    additionalProperties: false,
    required: ['runs', 'targets', 'attributes'],
    description: 'Runs in progress whose targets the run shares (noOverlap rules): by target ("<type>/<name>") and by attribute key and value, as execution ids described in `runs`.',
    properties: {
        runs: {
            type: 'object',
            description: 'Each run in progress listed below, by execution id.',
            additionalProperties: {
                type: 'object',
                additionalProperties: false,
                properties: {
                    experimentKey: { type: 'string', minLength: 1 },
                    team: { type: 'string', minLength: 1, description: 'Its team key.' },
                    since: { type: 'string', minLength: 1, description: 'When the gate allowed it, ISO 8601.' },
                },
            },
        },
        targets: {
            type: 'object',
            description: 'Runs in progress on a target, by "<target type>/<target name>".',
            additionalProperties: executionIds,
        },
        attributes: {
            type: 'object',
            description: 'Runs in progress on targets carrying an attribute value: by attribute key, then value.',
            additionalProperties: { type: 'object', additionalProperties: executionIds },
        },
    },
};
const stateProperties = {
    emergencyStop: {
        type: 'object',
        additionalProperties: false,
        required: ['engaged'],
        description: 'The Steadybit emergency stop (kill switch): the built-in policy and emergencyStop rules.',
        properties: {
            engaged: { type: 'boolean' },
            by: { type: 'string', description: 'Who engaged it.' },
            since: { type: 'string', description: 'When it was engaged, as Steadybit sent it.' },
            unconfirmed: {
                type: 'string',
                description: 'Why the service could not vouch for "not engaged" (no Platform API sync yet): the stop then cannot decide and denies.',
            },
        },
    },
    running: runs('Runs in progress (concurrency rules)', false),
    ended: runs('Runs that ended (cooldown rules)', true),
    started: runs('Runs started (quota rules)', false),
    exceptionUses: {
        type: 'object',
        description: 'Runs each exception with maxUses has waived so far, by exception name; a name not listed has waived none (docs/approvals.md).',
        additionalProperties: { type: 'integer', minimum: 0 },
    },
    inProgress,
    exceptionUsesUnknown: {
        type: 'string',
        minLength: 1,
        description: 'Why the service could not count the uses (in-memory state without EXCEPTION_USES_FILE): an exception with maxUses then does not waive, and the denial says this (docs/approvals.md).',
    },
};
const stateDescription = 'State facts: what the service learned from POST /events. A part that is missing was not gathered: rules that need it cannot decide (they deny).';
/** The state facts as a subschema (a suite case's `state:`). */
exports.stateFactsShape = {
    description: stateDescription,
    type: 'object',
    additionalProperties: false,
    properties: stateProperties,
};
exports.stateFactsSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'preflight-gate state facts (eval --state, state: in policy test suites)',
    ...exports.stateFactsShape,
};
/** The environment names part (Platform API; `eval --environments`, `environments:` in test suites). */
exports.environmentFactsShape = {
    type: 'object',
    description: 'The Steadybit names of the run\'s environments (Platform API), by the value the payload sent: {"name": ...} or {"unknown": why}.',
    additionalProperties: {
        oneOf: [
            {
                type: 'object',
                additionalProperties: false,
                required: ['name'],
                properties: { name: { type: 'string', minLength: 1 } },
            },
            {
                type: 'object',
                additionalProperties: false,
                required: ['unknown'],
                properties: { unknown: { type: 'string', minLength: 1 } },
            },
        ],
    },
};
/** The team members part (Platform API, GET /api/teams/{key}/members; `teams:` in recorded decisions). */
exports.teamFactsShape = {
    type: 'object',
    description: 'The members of the Steadybit teams createdByTeams names, by team key: {"members": [{"username", "email"}]} or {"unknown": why}.',
    additionalProperties: {
        oneOf: [
            {
                type: 'object',
                additionalProperties: false,
                required: ['members'],
                properties: {
                    members: {
                        type: 'array',
                        items: {
                            type: 'object',
                            additionalProperties: false,
                            required: ['username'],
                            properties: { username: { type: 'string' }, email: { type: 'string' } },
                        },
                    },
                },
            },
            {
                type: 'object',
                additionalProperties: false,
                required: ['unknown'],
                properties: { unknown: { type: 'string', minLength: 1 } },
            },
        ],
    },
};
/** Every fact a decision may be given: one part per fact source. */
exports.factsSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'preflight-gate facts (what a decision knows from outside the payload)',
    type: 'object',
    additionalProperties: false,
    properties: {
        state: exports.stateFactsShape,
        signals: signal_facts_schema_1.signalFactsShape,
        environments: exports.environmentFactsShape,
        teams: exports.teamFactsShape,
    },
};
const per = { type: 'string', enum: [...state_facts_1.SCOPE_KINDS] };
const windowMs = { type: 'integer', minimum: 1 };
const need = (kind, properties = {}) => ({
    type: 'object',
    additionalProperties: false,
    required: ['kind', ...Object.keys(properties)],
    properties: { kind: { const: kind }, ...properties },
});
/** A need as plain data (need.ts): what a recorded decision's policy set asked its sources for. */
exports.needSchema = {
    anyOf: [
        need('emergency-stop'),
        need('running', { per }),
        need('ended', { per, windowMs }),
        need('ended', { per: { const: 'service' }, attribute: { type: 'string', minLength: 1 }, windowMs }),
        need('started', { per, windowMs }),
        need('alerts', { source: { type: 'string', minLength: 1 } }),
        need('prometheus', { source: { type: 'string', minLength: 1 }, query: { type: 'string', minLength: 1 } }),
        need('environment-names'),
        need('exception-uses', { exception: { type: 'string', minLength: 1 } }),
        need('team-members', { team: { type: 'string', minLength: 1 } }),
        need('in-progress'),
        need('in-progress', { attribute: { type: 'string', minLength: 1 } }),
    ],
};
//# sourceMappingURL=facts-schema.js.map
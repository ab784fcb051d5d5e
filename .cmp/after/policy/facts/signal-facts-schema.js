"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SIGNAL_FACTS_SCHEMA = exports.signalFactsShape = void 0;
const readAt = { type: 'string', format: 'date-time', description: 'When the source answered.' };
const error = { type: 'string', description: 'Why the source could not answer: the rule cannot decide.' };
const labels = { type: 'object', additionalProperties: { type: 'string' } };
const alert = {
    type: 'object',
    required: ['labels'],
    properties: {
        labels,
        annotations: labels,
        startsAt: { type: 'string', format: 'date-time' },
        endsAt: { type: 'string', format: 'date-time' },
        fingerprint: { type: 'string' },
        generatorURL: { type: 'string' },
        updatedAt: { type: 'string' },
        receivers: { type: 'array' },
        status: {
            type: 'object',
            properties: {
                state: { type: 'string', enum: ['active', 'suppressed', 'unprocessed'] },
                silencedBy: { type: 'array', items: { type: 'string' } },
                inhibitedBy: { type: 'array', items: { type: 'string' } },
                mutedBy: { type: 'array', items: { type: 'string' } },
            },
        },
    },
};
const sample = {
    type: 'object',
    required: ['metric', 'value'],
    properties: {
        metric: labels,
        value: {
            type: 'array',
            minItems: 2,
            maxItems: 2,
            items: [
                { type: 'number' },
                {
                    type: 'string',
                    syntax: 'sampleValue',
                    description: 'The value as Prometheus writes it: a number, +Inf, -Inf or NaN.',
                },
            ],
        },
    },
};
const errorAnswer = (extra = {}) => ({
    type: 'object',
    additionalProperties: false,
    required: ['error'],
    properties: { readAt, error, ...extra },
});
// if/then/else rather than oneOf: a mistake is reported once, against the shape the answer means to have.
const queryAnswer = {
    type: 'object',
    if: { properties: { error: {} }, required: ['error'] },
    then: errorAnswer({ badQuery: { type: 'boolean', description: 'Prometheus refused the query (bad_data).' } }),
    else: {
        additionalProperties: false,
        required: ['resultType', 'result'],
        properties: { readAt, resultType: { type: 'string', enum: ['vector', 'scalar', 'matrix', 'string'] }, result: {} },
        if: { properties: { resultType: { const: 'vector' } } },
        then: { properties: { result: { type: 'array', items: sample } } },
        else: {
            if: { properties: { resultType: { const: 'scalar' } } },
            then: { properties: { result: sample.properties.value } },
        },
    },
};
const silence = {
    type: 'object',
    required: ['startsAt'],
    properties: {
        startsAt: { type: 'string', format: 'date-time', description: 'When the silence began to hide alerts.' },
        updatedAt: { type: 'string', format: 'date-time', description: 'When it was last made or changed.' },
        endsAt: { type: 'string', format: 'date-time' },
    },
};
const alertsAnswer = {
    type: 'object',
    if: { properties: { error: {} }, required: ['error'] },
    then: errorAnswer(),
    else: {
        additionalProperties: false,
        required: ['alerts'],
        properties: {
            readAt,
            alerts: { type: 'array', items: alert },
            silences: {
                type: 'object',
                additionalProperties: silence,
                description: 'Silence id -> when it began and was last changed (GET /api/v2/silences), read when an alert is silenced: a silence that began after the run started does not hide alerts from it (docs/guard.md).',
            },
            silencesError: {
                type: 'string',
                description: 'Why the silences could not be read: no silence hides an alert (fail closed).',
            },
        },
    },
};
const jsonAnswer = {
    type: 'object',
    if: { properties: { error: {} }, required: ['error'] },
    then: errorAnswer(),
    else: {
        additionalProperties: false,
        required: ['status', 'body'],
        properties: {
            readAt,
            status: { type: 'integer', minimum: 100, maximum: 399 },
            body: { description: 'The JSON the endpoint answered.' },
        },
    },
};
/** Signal facts as a subschema (the `signals` part of all facts, a suite case's `signals:`). */
exports.signalFactsShape = {
    description: 'What Alertmanager and Prometheus sources answered, by source name (and query text): for eval --signals and test suites (docs/signals.md). A source or query missing was not read: its rules cannot decide.',
    type: 'object',
    additionalProperties: false,
    properties: {
        alertmanager: {
            type: 'object',
            description: 'Alertmanager source name -> its alerts, or the error it gave.',
            additionalProperties: alertsAnswer,
        },
        prometheus: {
            type: 'object',
            description: 'Prometheus source name -> query text (placeholders filled) -> its answer.',
            additionalProperties: { type: 'object', additionalProperties: queryAnswer },
        },
        json: {
            type: 'object',
            description: 'JSON source name -> path with query (placeholders filled) -> {status, body}, or the error.',
            additionalProperties: { type: 'object', additionalProperties: jsonAnswer },
        },
        silentSince: {
            type: 'array',
            description: 'Judged while a run is in progress (eval --while-running, whileRunning cases, the guard): the signals of deadMan rules that are silent and since when, as the guard keeps them for the run; absent at the door (docs/guard.md, "Dead man").',
            items: {
                type: 'object',
                additionalProperties: false,
                required: ['kind', 'source', 'since'],
                properties: {
                    kind: { type: 'string', enum: ['alertmanager', 'prometheus'] },
                    source: { type: 'string', minLength: 1, description: 'The source name, e.g. default.' },
                    query: { type: 'string', minLength: 1, description: 'prometheus: the query text, placeholders filled.' },
                    since: { type: 'string', format: 'date-time', description: 'When it was first found silent.' },
                },
            },
        },
    },
};
/** The JSON Schema of a signal facts file (`preflight-gate schema --signals`, docs/signals.md). */
exports.SIGNAL_FACTS_SCHEMA = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'preflight-gate signal facts',
    ...exports.signalFactsShape,
};
//# sourceMappingURL=signal-facts-schema.js.map
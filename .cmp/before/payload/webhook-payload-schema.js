"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.webhookPayloadSchema = exports.killswitchSchema = exports.executionSchema = void 0;
/**
 * JSON Schema of the webhook payload Steadybit sends (preflight and custom webhooks).
 *
 * Written from `WebhookPayloadAO` and its children in Steadybit's public OpenAPI spec
 * (steadybit/cli openapi/platform-api.json, spec version 2.8.7): same field names and types.
 * Deliberate differences, each because Steadybit really sends it (see test/fixtures/payloads):
 *  - unknown properties are accepted everywhere (forward compatible);
 *  - `experimentVersion` is an int32 in the spec, but the spec's own example sends "5";
 *  - enums (`createdVia`, `actionKind`) are plain strings: a value Steadybit adds later must
 *    reach the policies (which can deny it) instead of failing validation;
 *  - `format: uuid` is not enforced (user ids such as "13av2737-..." are not valid UUIDs), and a
 *    step's `predecessorId` may be null (the first step has none);
 *  - `uniqueItems` (tags, target attributes) and the attribute value's `minLength: 1` are not
 *    enforced: a duplicate tag or an empty attribute value is no reason to stop a run, and the
 *    policies see the payload as sent;
 *  - step `oneOf` (wait / action / service validation) has no discriminator in the spec, so a
 *    step is validated as the union of their properties;
 *  - target counts (`totalTargetCount`, `radius.maximum`) must not be negative and
 *    `radius.percentage` lies in 0..100: the spec only says integer, and a negative count would
 *    lower a run's total below a cap;
 *  - `TargetPredicateAO` is recursive in the spec (and loops forever in some validators); the
 *    blast-radius predicate is accepted as any object and judged by the policy engine, which
 *    treats shapes it does not know as "cannot decide".
 */
const dateTime = { type: 'string', format: 'date-time' };
const str = { type: 'string' };
const int = { type: 'integer' };
/**
 * A value policies scope runs by (team, experiment key, createdVia): never empty. An empty string
 * would count as a known value outside every `match` list and skip the policy, where a missing
 * one keeps it in scope.
 */
const scopeValue = { type: 'string', minLength: 1 };
const userSummary = {
    type: 'object',
    required: ['username'],
    properties: {
        username: { type: 'string', maxLength: 255 },
        name: str,
        pictureUrl: { type: ['string', 'null'] },
        email: { type: ['string', 'null'] },
    },
};
const attribute = {
    type: 'object',
    required: ['key', 'value'],
    properties: { key: { type: 'string', minLength: 1 }, value: { type: 'string' } },
};
const target = {
    type: 'object',
    properties: { type: str, name: str, attributes: { type: 'array', items: attribute } },
};
/** A count or share of targets: never negative (a negative count would offset another step's in a total cap). */
const count = { type: 'integer', minimum: 0 };
const blastRadius = {
    type: 'object',
    properties: {
        targetType: str,
        percentage: { type: 'integer', minimum: 0, maximum: 100 },
        maximum: count,
        predicate: { type: 'object' },
    },
};
const stepCommon = {
    id: str,
    predecessorId: { type: ['string', 'null'] },
    state: str,
    started: dateTime,
    ended: dateTime,
    reason: str,
    ignoreFailure: { type: 'boolean' },
    parameters: { type: 'object' },
    customLabel: str,
};
const actionStep = {
    type: 'object',
    properties: {
        ...stepCommon,
        actionId: str,
        actionKind: str,
        radius: blastRadius,
        targetExecutions: { type: 'array', items: target },
        totalTargetCount: count,
    },
};
const step = {
    type: 'object',
    properties: {
        ...actionStep.properties,
        stepType: str,
        serviceId: str,
        validations: { type: 'array', items: actionStep },
    },
};
const variable = {
    type: 'object',
    properties: { value: { anyOf: [str, { type: 'array', items: str }] }, origin: str },
};
exports.executionSchema = {
    type: 'object',
    properties: {
        id: int,
        experimentKey: scopeValue,
        teamKey: scopeValue,
        environment: str,
        name: str,
        hypothesis: str,
        tags: { type: 'array', items: str },
        requested: dateTime,
        created: dateTime,
        createdBy: userSummary,
        createdVia: scopeValue,
        experimentVersion: { anyOf: [int, { type: 'string', pattern: '^-?[0-9]+$' }] },
        started: dateTime,
        ended: dateTime,
        state: str,
        steps: { type: 'array', items: step },
        overrides: {
            type: 'object',
            properties: { environment: str, variables: { type: 'object', additionalProperties: str } },
        },
        reason: str,
        reasonDetails: str,
        canceledBy: userSummary,
        variables: { type: 'object', additionalProperties: variable },
    },
};
exports.killswitchSchema = {
    type: 'object',
    properties: {
        engagedBy: str,
        engagedByDetails: userSummary,
        engaged: dateTime,
        disengagedBy: str,
        disengagedByDetails: userSummary,
        disengaged: dateTime,
    },
};
exports.webhookPayloadSchema = {
    $id: 'https://preflight-gate.dev/schemas/webhook-payload.json',
    type: 'object',
    required: ['event'],
    properties: {
        event: { type: 'string', minLength: 1 },
        time: dateTime,
        killswitch: exports.killswitchSchema,
        execution: exports.executionSchema,
        executionStepId: str,
    },
};
//# sourceMappingURL=webhook-payload-schema.js.map
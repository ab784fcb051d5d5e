"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DOCUMENT_SCHEMAS = exports.aliasesSchema = exports.exceptionSettingsSchema = exports.exceptionSchema = exports.policySchema = exports.whileRunningSchema = exports.modificationSchema = exports.ruleSchema = exports.NAME_PATTERN = void 0;
exports.editorSchema = editorSchema;
const rules_1 = require("../rules");
const scope_1 = require("../engine/scope");
const string_syntax_1 = require("../../syntax/string-syntax");
const decision_1 = require("../core/decision");
const duration_1 = require("../../syntax/duration");
/**
 * JSON Schemas of the documents a policy directory holds, one per `kind`. Assembled from the
 * registered rule kinds, so a new rule kind is described here without editing this file.
 * `preflight-gate schema` prints the combined schema for editors.
 */
var string_syntax_2 = require("../../syntax/string-syntax");
Object.defineProperty(exports, "NAME_PATTERN", { enumerable: true, get: function () { return string_syntax_2.NAME_PATTERN; } });
const name = {
    type: 'string',
    pattern: string_syntax_1.NAME_PATTERN,
    syntax: 'policyName',
    description: 'Unique, lower-case letters, digits and dashes.',
};
exports.ruleSchema = {
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
    description: 'One rule: a single key naming its kind.',
    properties: Object.fromEntries(rules_1.RULE_KINDS.map((k) => [k.key, { ...k.schema, description: k.description }])),
};
const modificationValue = {
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: ['string', 'number'] } }],
};
exports.modificationSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'propertyKey', 'value'],
    properties: {
        type: { type: 'string', enum: ['set_property_value', 'add_value_to_list_property'] },
        propertyKey: { type: 'string', minLength: 1, maxLength: 64 },
        value: {
            ...modificationValue,
            description: 'Strings may use {{decisionId}}, {{revision}}, {{policy}}, {{now}}, {{experimentKey}}, {{team}}, {{environment}}, {{executionId}}.',
        },
    },
};
/** `whileRunning: true` or `{onCannotJudge: report|stop}`: the policy is judged again while a run lasts (docs/guard.md). */
exports.whileRunningSchema = {
    description: 'Keep judging allowed runs while they are in progress and stop (cancel) a run this policy now denies; docs/guard.md.',
    anyOf: [
        { const: true },
        {
            type: 'object',
            additionalProperties: false,
            properties: {
                onCannotJudge: {
                    type: 'string',
                    enum: ['report', 'stop'],
                    default: 'report',
                    description: 'report: the run goes on and the gap is reported; stop: the run is cancelled.',
                },
            },
        },
    ],
};
exports.policySchema = {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'name'],
    properties: {
        kind: { const: 'Policy' },
        name,
        description: { type: 'string' },
        mode: {
            type: 'string',
            enum: [...decision_1.MODES],
            default: 'enforce',
            description: 'enforce: deny; warn: allow and say what would be denied; audit: allow, only log and count.',
        },
        priority: {
            type: 'integer',
            minimum: 0,
            maximum: 1000,
            default: 100,
            description: 'Higher comes first in a denial message and wins modification conflicts.',
        },
        match: { ...scope_1.policyMatchSchema, description: 'Runs this policy applies to; every field given must match.' },
        exclude: { ...scope_1.scopeSchema, description: 'Runs (or steps) this policy does not apply to.' },
        rules: {
            type: 'array',
            items: exports.ruleSchema,
            description: 'Every rule is checked; any violation is a denial (subject to mode).',
        },
        message: { type: 'string', minLength: 1, description: 'Denial message template, once per violation.' },
        modifications: {
            type: 'array',
            items: exports.modificationSchema,
            description: 'Added to an allowed run when this policy is in scope and does not deny.',
        },
        whileRunning: exports.whileRunningSchema,
    },
};
exports.exceptionSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'name', 'policy', 'owner', 'reason', 'expires'],
    properties: {
        kind: { const: 'Exception' },
        name,
        policy: { type: 'string', pattern: string_syntax_1.NAME_PATTERN, syntax: 'policyName', description: 'The policy this waives.' },
        owner: { type: 'string', minLength: 1, description: 'Who answers for the waiver.' },
        reason: {
            type: 'string',
            minLength: 1,
            description: 'Why the policy may be waived (a change ticket, an approval).',
        },
        expires: {
            type: 'string',
            format: 'date-time',
            description: 'RFC 3339 time; the waiver stops applying by itself (at most ExceptionSettings.maxDuration ahead).',
        },
        requestedBy: {
            type: 'string',
            minLength: 1,
            description: 'Who asked for the waiver (a Steadybit username or email).',
        },
        approvedBy: {
            type: 'string',
            minLength: 1,
            description: 'Who approved it (a Steadybit username or email), recorded for the audit trail.',
        },
        maxUses: {
            type: 'integer',
            minimum: 1,
            description: 'Runs it may waive in all, counted by the state store across replicas; then the policy denies again.',
        },
        match: { ...scope_1.scopeSchema, description: 'Runs the waiver applies to (default: every run the policy applies to).' },
    },
};
exports.exceptionSettingsSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'maxDuration'],
    properties: {
        kind: { const: 'ExceptionSettings' },
        maxDuration: {
            type: 'string',
            pattern: duration_1.DURATION_WITH_UNITS_PATTERN,
            description: 'The longest an exception may run: its expires at most this far ahead when the set is loaded, e.g. 7d.',
        },
        approverNotStarter: {
            type: 'boolean',
            default: false,
            description: 'true: every exception must name approvedBy, and it does not waive a run its approver started (username or email, case-insensitive): a second person approves.',
        },
    },
};
exports.aliasesSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'aliases'],
    properties: {
        kind: { const: 'EnvironmentAliases' },
        aliases: {
            type: 'object',
            minProperties: 1,
            propertyNames: { syntax: 'name' },
            additionalProperties: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1, syntax: 'name' } },
            description: 'Alias name -> environment ids (or names) it stands for.',
        },
    },
};
exports.DOCUMENT_SCHEMAS = {
    Policy: exports.policySchema,
    Exception: exports.exceptionSchema,
    EnvironmentAliases: exports.aliasesSchema,
    ExceptionSettings: exports.exceptionSettingsSchema,
};
/** The combined schema, for editors (yaml-language-server) and `preflight-gate schema`. */
function editorSchema() {
    return {
        $schema: 'http://json-schema.org/draft-07/schema#',
        title: 'preflight-gate policy document',
        oneOf: Object.values(exports.DOCUMENT_SCHEMAS),
    };
}
//# sourceMappingURL=document-schema.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.suiteSchema = void 0;
const document_schema_1 = require("../../policy/compile/document-schema");
const built_in_policies_1 = require("../../policy/compile/built-in-policies");
const facts_schema_1 = require("../../policy/facts/facts-schema");
const signal_facts_schema_1 = require("../../policy/facts/signal-facts-schema");
/** A policy's name: one of the files' or a built-in policy's (they are decided too). */
const policyName = {
    type: 'string',
    anyOf: [{ pattern: document_schema_1.NAME_PATTERN, syntax: 'policyName' }, { enum: [built_in_policies_1.EMERGENCY_STOP_POLICY] }],
};
const policyNames = { type: 'array', uniqueItems: true, items: policyName };
const payloadSourceProperties = {
    payload: { type: 'object', description: 'The webhook payload, inline.' },
    payloadFile: {
        type: 'string',
        minLength: 1,
        description: 'A payload file (JSON or YAML), relative to this suite file.',
    },
    patch: {
        type: 'object',
        minProperties: 1,
        description: 'Dotted paths to change on the payload, e.g. "execution.environment": production. Each must exist in the payload (a misspelt path is an error, never a new field).',
    },
    add: {
        type: 'object',
        minProperties: 1,
        description: 'Dotted paths the payload lacks, to create, e.g. "execution.overrides": { environment: production }. A path that exists is an error (change it under patch).',
    },
    unset: {
        type: 'array',
        minItems: 1,
        items: { type: 'string', minLength: 1 },
        description: 'Dotted paths to delete from the payload.',
    },
    now: { type: 'string', format: 'date-time', description: 'The pinned evaluation time, e.g. 2026-03-02T10:00:00Z.' },
    state: {
        ...facts_schema_1.stateFactsShape,
        description: "State facts for rules that need them (docs/state.md); without, those of a freshly started service. A case's state replaces the defaults' part by part.",
    },
    environments: {
        ...facts_schema_1.environmentFactsShape,
        description: "The Steadybit names of the payload's environments, as the service reads them from the Platform API (docs/platform-api.md): {\"<environment id>\": {name: production}} or {unknown: why}; without, none (policies match the values sent and aliases). A case's names replace the defaults' value by value.",
    },
    teams: {
        ...facts_schema_1.teamFactsShape,
        description: "The members of the Steadybit teams that createdByTeams names, as the service reads them from the Platform API (docs/policies.md#who-started-the-run): {SRE: {members: [{username: jane, email: jane@example.com}]}} or {SRE: {unknown: why}}; without, policies that need them cannot decide. A case's teams replace the defaults' team by team.",
    },
    signals: {
        ...signal_facts_schema_1.signalFactsShape,
        description: "Signal facts for alerts and prometheus rules (docs/signals.md); without, those rules cannot decide. A case's signals replace the defaults' part by part (alertmanager, prometheus).",
    },
    signalsFile: {
        type: 'string',
        minLength: 1,
        description: 'Signal facts in a file (JSON or YAML, as eval --signals reads), relative to this suite file; instead of signals.',
    },
};
const expectedModification = {
    ...document_schema_1.modificationSchema,
    required: ['type', 'propertyKey'],
    properties: {
        ...document_schema_1.modificationSchema.properties,
        valuePattern: { type: 'string', minLength: 1, description: 'A regex the value must match (instead of value).' },
    },
};
exports.suiteSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'preflight-gate policy test suite (*.test.yaml)',
    type: 'object',
    additionalProperties: false,
    required: ['cases'],
    properties: {
        kind: { const: 'PolicyTestSuite' },
        name: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        defaults: {
            type: 'object',
            additionalProperties: false,
            properties: payloadSourceProperties,
            description: 'Applied to every case; a case overrides them.',
        },
        cases: {
            type: 'array',
            minItems: 1,
            description: 'The cases; a suite without cases fails.',
            items: {
                type: 'object',
                additionalProperties: false,
                required: ['name', 'expect'],
                properties: {
                    name: { type: 'string', minLength: 1 },
                    description: { type: 'string' },
                    whileRunning: {
                        type: 'boolean',
                        description: 'Judge the run as the guard does while it is in progress, at now (docs/guard.md); expect stopped (and stoppedBy).',
                    },
                    ...payloadSourceProperties,
                    expect: {
                        type: 'object',
                        additionalProperties: false,
                        properties: {
                            decision: { type: 'string', enum: ['allow', 'deny'] },
                            stopped: { type: 'boolean', description: 'whileRunning cases: whether the guard stops the run.' },
                            stoppedBy: { ...policyNames, description: 'whileRunning cases: exactly the policies that stop it.' },
                            denied: policyNames,
                            warned: policyNames,
                            audited: policyNames,
                            results: {
                                type: 'object',
                                propertyNames: policyName,
                                additionalProperties: { type: 'string', enum: ['pass', 'deny', 'warn', 'audit', 'skipped'] },
                            },
                            message: { type: 'string', minLength: 1, description: 'A regex the decision message must match.' },
                            modifications: { type: 'array', items: expectedModification },
                        },
                    },
                },
            },
        },
    },
};
//# sourceMappingURL=suite-schema.js.map
import { modificationSchema, NAME_PATTERN } from '../../policy/compile/document-schema';
import { EMERGENCY_STOP_POLICY } from '../../policy/compile/built-in-policies';
import { environmentFactsShape, stateFactsShape, teamFactsShape } from '../../policy/facts/facts-schema';
import { signalFactsShape } from '../../policy/facts/signal-facts-schema';
import type { Modification, PolicyResultKind } from '../../policy/core/decision';

/**
 * A policy test suite: `*.test.yaml` next to the policies (the service never loads these).
 * The format is documented in docs/policy-workflow.md ("Policy test suites"); `preflight-gate schema
 * --test-suite` prints this schema for editors.
 */
export interface PayloadSource {
  /** The payload itself, inline. */
  payload?: Record<string, unknown>;
  /** A JSON (or YAML) payload file, relative to the suite file. */
  payloadFile?: string;
  /** Dotted paths to change, e.g. `execution.steps[1].radius.percentage: 80`: each must exist in the payload. */
  patch?: Record<string, unknown>;
  /** Dotted paths the payload lacks, to create (e.g. `execution.overrides`); applied before patch. */
  add?: Record<string, unknown>;
  /** Dotted paths to delete. */
  unset?: string[];
  /** The pinned evaluation time (RFC 3339). */
  now?: string;
  /** State facts for rules that need them (guardrails with memory): docs/state.md, `schema --state`. */
  state?: Record<string, unknown>;
  /** The Steadybit names of the payload's environments (Platform API): docs/platform-api.md. */
  environments?: Record<string, unknown>;
  /** The members of the Steadybit teams createdByTeams names (Platform API): docs/policies.md#who-started-the-run. */
  teams?: Record<string, unknown>;
  /** Signal facts for alerts and prometheus rules: docs/signals.md, `schema --signals`. */
  signals?: Record<string, unknown>;
  /** The same in a file (JSON or YAML, e.g. one `eval --signals` reads), relative to the suite file. */
  signalsFile?: string;
}

export interface ExpectedModification {
  type: Modification['type'];
  propertyKey: string;
  value?: Modification['value'];
  /** A regex the (string) value must match, for values holding {{decisionId}} or {{revision}}. */
  valuePattern?: string;
}

export interface Expectation {
  /** At the door (required unless the case is `whileRunning`). */
  decision?: 'allow' | 'deny';
  /** `whileRunning` cases: whether the guard stops the run (docs/guard.md). */
  stopped?: boolean;
  /** `whileRunning` cases: exactly the policies that stop it (checked only when given). */
  stoppedBy?: string[];
  /** Exactly the policies that deny (default: none). */
  denied?: string[];
  /** Exactly the policies in warn mode that would deny (default: none). */
  warned?: string[];
  /** Exactly the policies in audit mode that would deny (checked only when given). */
  audited?: string[];
  /** Per-policy result, e.g. `{ change-freeze: skipped }`. */
  results?: Record<string, PolicyResultKind>;
  /** A regex the decision message must match. */
  message?: string;
  /** Exactly these modifications, in any order (checked only when given; `[]` means none). */
  modifications?: ExpectedModification[];
}

export interface SuiteCase extends PayloadSource {
  name: string;
  description?: string;
  /** Judge the run as the guard does while it is in progress, at `now` (docs/guard.md). */
  whileRunning?: boolean;
  expect: Expectation;
}

export interface SuiteDocument {
  kind?: 'PolicyTestSuite';
  name?: string;
  description?: string;
  defaults?: PayloadSource;
  cases: SuiteCase[];
}

/** A policy's name: one of the files' or a built-in policy's (they are decided too). */
const policyName = {
  type: 'string',
  anyOf: [{ pattern: NAME_PATTERN, syntax: 'policyName' }, { enum: [EMERGENCY_STOP_POLICY] }],
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
    description:
      'Dotted paths to change on the payload, e.g. "execution.environment": production. Each must exist in the payload (a misspelt path is an error, never a new field).',
  },
  add: {
    type: 'object',
    minProperties: 1,
    description:
      'Dotted paths the payload lacks, to create, e.g. "execution.overrides": { environment: production }. A path that exists is an error (change it under patch).',
  },
  unset: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', minLength: 1 },
    description: 'Dotted paths to delete from the payload.',
  },
  now: { type: 'string', format: 'date-time', description: 'The pinned evaluation time, e.g. 2026-03-02T10:00:00Z.' },
  state: {
    ...stateFactsShape,
    description:
      "State facts for rules that need them (docs/state.md); without, those of a freshly started service. A case's state replaces the defaults' part by part.",
  },
  environments: {
    ...environmentFactsShape,
    description:
      "The Steadybit names of the payload's environments, as the service reads them from the Platform API (docs/platform-api.md): {\"<environment id>\": {name: production}} or {unknown: why}; without, none (policies match the values sent and aliases). A case's names replace the defaults' value by value.",
  },
  teams: {
    ...teamFactsShape,
    description:
      "The members of the Steadybit teams that createdByTeams names, as the service reads them from the Platform API (docs/policies.md#who-started-the-run): {SRE: {members: [{username: jane, email: jane@example.com}]}} or {SRE: {unknown: why}}; without, policies that need them cannot decide. A case's teams replace the defaults' team by team.",
  },
  signals: {
    ...signalFactsShape,
    description:
      "Signal facts for alerts and prometheus rules (docs/signals.md); without, those rules cannot decide. A case's signals replace the defaults' part by part (alertmanager, prometheus).",
  },
  signalsFile: {
    type: 'string',
    minLength: 1,
    description:
      'Signal facts in a file (JSON or YAML, as eval --signals reads), relative to this suite file; instead of signals.',
  },
};

const expectedModification = {
  ...modificationSchema,
  required: ['type', 'propertyKey'],
  properties: {
    ...modificationSchema.properties,
    valuePattern: { type: 'string', minLength: 1, description: 'A regex the value must match (instead of value).' },
  },
};

export const suiteSchema = {
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
            description:
              'Judge the run as the guard does while it is in progress, at now (docs/guard.md); expect stopped (and stoppedBy).',
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

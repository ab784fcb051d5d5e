import { ajv, toFieldErrors, type FieldError } from '../validation/ajv';

/**
 * What the live sources said for one decision (docs/signals.md "Signal facts"): gathered before the
 * pure decision, recorded in explanations, pinned by `eval --signals facts.json` and test suites.
 */
export interface SignalFacts {
  /** Per Alertmanager source: its active alerts (all of them; rules filter with their matchers). */
  alertmanager?: Record<string, AlertsAnswer>;
  /** Per Prometheus source, per query text (placeholders filled): the query's answer. */
  prometheus?: Record<string, Record<string, QueryAnswer>>;
}

/** An alert as Alertmanager API v2 lists it (`GettableAlert`); only `labels` is required in a facts file. */
export interface AlertFact {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  fingerprint?: string;
  generatorURL?: string;
  /** Absent in a facts file: active, neither silenced nor inhibited. */
  status?: { state?: 'active' | 'suppressed' | 'unprocessed'; silencedBy?: string[]; inhibitedBy?: string[] };
}

/** `readAt`: when the source answered (ISO time); shown by explanations. `error`: why it could not. */
export type AlertsAnswer = { readAt?: string; alerts: AlertFact[] } | { readAt?: string; error: string };

export interface PromSample { metric: Record<string, string>; value: [number, string] }

export type QueryResult =
  | { resultType: 'vector'; result: PromSample[] }
  | { resultType: 'scalar'; result: [number, string] }
  | { resultType: 'matrix' | 'string'; result: unknown };

/** `badQuery`: Prometheus refused the query itself (bad_data), a policy bug no onUnavailable lets through. */
export type QueryAnswer = ({ readAt?: string } & QueryResult) | { readAt?: string; error: string; badQuery?: boolean };

const readAt = { type: 'string', format: 'date-time', description: 'When the source answered.' };
const error = { type: 'string', description: 'Why the source could not answer: the rule cannot decide.' };
const labels = { type: 'object', additionalProperties: { type: 'string' } };
const alert = {
  type: 'object',
  required: ['labels'],
  properties: {
    labels, annotations: labels,
    startsAt: { type: 'string', format: 'date-time' }, endsAt: { type: 'string', format: 'date-time' },
    fingerprint: { type: 'string' }, generatorURL: { type: 'string' }, updatedAt: { type: 'string' },
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
const sample = { type: 'object', required: ['metric', 'value'], properties: { metric: labels, value: { type: 'array', minItems: 2, maxItems: 2, items: [{ type: 'number' }, { type: 'string' }] } } };
const errorAnswer = (extra: Record<string, unknown> = {}) => ({ type: 'object', additionalProperties: false, required: ['error'], properties: { readAt, error, ...extra } });
// if/then/else rather than oneOf: a mistake is reported once, against the shape the answer means to have.
const queryAnswer = {
  type: 'object',
  if: { properties: { error: {} }, required: ['error'] },
  then: errorAnswer({ badQuery: { type: 'boolean', description: 'Prometheus refused the query (bad_data).' } }),
  else: {
    additionalProperties: false, required: ['resultType', 'result'],
    properties: { readAt, resultType: { type: 'string', enum: ['vector', 'scalar', 'matrix', 'string'] }, result: {} },
    if: { properties: { resultType: { const: 'vector' } } }, then: { properties: { result: { type: 'array', items: sample } } },
    else: { if: { properties: { resultType: { const: 'scalar' } } }, then: { properties: { result: sample.properties.value } } },
  },
};
const alertsAnswer = {
  type: 'object',
  if: { properties: { error: {} }, required: ['error'] },
  then: errorAnswer(),
  else: { additionalProperties: false, required: ['alerts'], properties: { readAt, alerts: { type: 'array', items: alert } } },
};

/** Signal facts as a subschema (the `signals` part of all facts, a suite case's `signals:`). */
export const signalFactsShape = {
  description: 'What Alertmanager and Prometheus sources answered, by source name (and query text): for eval --signals and test suites (docs/signals.md). A source or query missing was not read: its rules cannot decide.',
  type: 'object',
  additionalProperties: false,
  properties: {
    alertmanager: { type: 'object', description: 'Alertmanager source name -> its alerts, or the error it gave.', additionalProperties: alertsAnswer },
    prometheus: { type: 'object', description: 'Prometheus source name -> query text (placeholders filled) -> its answer.', additionalProperties: { type: 'object', additionalProperties: queryAnswer } },
  },
};

/** The JSON Schema of a signal facts file (`preflight-gate schema --signals`, docs/signals.md). */
export const SIGNAL_FACTS_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'preflight-gate signal facts',
  ...signalFactsShape,
};

const validate = ajv.compile<SignalFacts>(SIGNAL_FACTS_SCHEMA);

/** Checks a signal facts document; the errors name the path (`alertmanager.default.alerts[0].labels: is required`). */
export function validateSignalFacts(value: unknown): { ok: true; facts: SignalFacts } | { ok: false; errors: FieldError[] } {
  if (validate(value)) return { ok: true, facts: value };
  return { ok: false, errors: toFieldErrors(validate.errors) };
}

/** An own entry of a facts map (never one inherited from Object.prototype). */
export function own<V>(map: Record<string, V> | undefined, key: string): V | undefined {
  return map !== undefined && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

import jsonLogic from 'json-logic-js';
import type { RuleCheck } from '../core/compiled';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { checkExpression } from '../json-logic/check-expression';
import { compileSimple } from '../json-logic/compile-simple';
import { dataRoots } from '../json-logic/data-roots';
import { checkJson, type JsonLogicFn } from '../signals/json-check';
import { parseJsonPath } from '../signals/json-path-text';
import { fillsEnvironment, targetKeysOf } from '../signals/placeholder-text';
import { DEFAULT_SOURCE } from '../signals/source-kind';
import { ENVIRONMENT_NAMES } from '../facts/environment-facts';
import { failsOpen } from '../facts/signal-need';
import { signalRunsOf, withBlind } from './signal-run-values';

type Expression = Parameters<typeof jsonLogic.apply>[0];
interface Spec {
  source?: string;
  path: string;
  denyWhen: Expression;
  detail?: Expression;
  reason: string;
  onUnavailable?: 'deny' | 'allow';
  whenMissing?: 'deny' | 'allow';
}

const ROOTS = ['status', 'body'];

/** A json-logic expression over `{status, body}`, checked now: allowed operators, literal paths under status or body. */
function compileLogic(expr: Expression | undefined, at: string): JsonLogicFn {
  if (expr === null || expr === undefined) throw new RuleSpecError(`${at} has no expression`, [at]);
  checkExpression(expr, [at]);
  const roots = dataRoots(expr);
  const unknown = roots === 'all' ? [] : [...roots].filter((r) => !ROOTS.includes(r));
  if (unknown.length > 0)
    throw new RuleSpecError(`unknown data "${unknown[0]}"; a path starts with status or body (the endpoint's answer)`, [
      at,
    ]);
  return compileSimple(expr) ?? ((data: unknown) => jsonLogic.apply(expr, data));
}

/**
 * `- json: {source: pagerduty, path: "/incidents?statuses[]=triggered&service_ids[]={{target.k8s.label.pd-service}}",
 * denyWhen: {">": [{var: "body.incidents.length"}, 0]}, reason: "an open incident"}`: any HTTP endpoint
 * answering JSON, asked before the decision (the `json` need), judged here with json-logic.
 */
export const jsonSignalRule = defineRule<Spec>({
  key: 'json',
  description:
    'Deny when a json-logic expression over the JSON an HTTP endpoint answers ({status, body}) is true; placeholders in the path; docs/attacked-services.md.',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'denyWhen', 'reason'],
    properties: {
      source: {
        type: 'string',
        pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
        syntax: 'sourceName',
        description: `A json source of SIGNAL_SOURCES_FILE (default "${DEFAULT_SOURCE}").`,
      },
      path: {
        type: 'string',
        minLength: 1,
        description:
          'Path and query after the source URL, e.g. /incidents?statuses[]=triggered; placeholders ({{environment}}, {{target.<attribute>}}) are URL-encoded.',
      },
      denyWhen: { description: 'json-logic over {status, body}: the run is denied when it is true.' },
      detail: {
        description:
          'json-logic over {status, body}: a value said with the denial, e.g. the titles of the open incidents.',
      },
      reason: { type: 'string', minLength: 1, description: 'What the message says when the rule denies.' },
      onUnavailable: {
        type: 'string',
        enum: ['deny', 'allow'],
        description:
          'When the endpoint cannot answer (unreachable, timeout, HTTP 4xx/5xx, not JSON): deny (default) or allow (said in the message).',
      },
      whenMissing: {
        type: 'string',
        enum: ['deny', 'allow'],
        description: 'A target without an attribute a {{target.<key>}} placeholder reads: deny (default) or allow.',
      },
    },
  },
  compile(spec) {
    const path = parseJsonPath(spec.path);
    if (typeof path === 'string') throw new RuleSpecError(path, ['path']);
    const targetKeys = [...new Set(targetKeysOf(path))];
    if (spec.whenMissing !== undefined && targetKeys.length === 0)
      throw new RuleSpecError(
        'whenMissing is about targets: it only applies with a {{target.<attribute>}} placeholder',
        ['whenMissing'],
      );
    const source = spec.source ?? DEFAULT_SOURCE;
    const check = {
      source,
      path,
      reason: spec.reason,
      onUnavailable: spec.onUnavailable ?? 'deny',
      denyWhen: compileLogic(spec.denyWhen, 'denyWhen'),
      detail: spec.detail === undefined ? undefined : compileLogic(spec.detail, 'detail'),
    } as const;
    const run: RuleCheck['check'] = ({ ctx }) => {
      const { runs, blind } = signalRunsOf(ctx, targetKeys, spec.whenMissing);
      return withBlind(blind, checkJson(check, ctx.facts.signals, runs));
    };
    const needs = [{ kind: 'json' as const, source, path: spec.path, ...failsOpen(spec.onUnavailable) }];
    return { needs: fillsEnvironment(spec.path) ? [...needs, ENVIRONMENT_NAMES] : needs, check: run };
  },
});

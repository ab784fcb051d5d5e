import type { CompiledModification, CompiledPolicy, CompiledRule } from '../core/compiled';
import type { CompiledScope, ScopeSpec } from '../core/compiled-scope';
import type { Mode, Modification } from '../core/decision';
import { policyOf } from '../core/shapes';
import { passOutcome } from '../engine/policy-texts';
import { compileTemplate } from '../core/compile-template';
import type { DocumentProblems } from './document-problems';
import { sharedRule, sharedScope, type SharedParts } from './shared-parts';
import { compileWhileRunning, type WhileRunningSpec } from './while-running';
import type { ParsedDocument } from './yaml-source';

export const MODIFICATION_PLACEHOLDERS = [
  'decisionId',
  'revision',
  'policy',
  'now',
  'experimentKey',
  'team',
  'environment',
  'executionId',
];

/** A Policy document as its schema leaves it. */
export interface PolicyDoc {
  name: string;
  description?: string;
  mode?: Mode;
  priority?: number;
  match?: ScopeSpec;
  exclude?: ScopeSpec;
  rules?: Array<Record<string, unknown>>;
  message?: string;
  modifications?: Modification[];
  whileRunning?: WhileRunningSpec;
}

/** One Policy: each part the schema left intact compiled, its problems added to `problems`. */
export function compilePolicy(
  doc: PolicyDoc,
  parsed: ParsedDocument,
  shared: SharedParts,
  problems: DocumentProblems,
): CompiledPolicy | undefined {
  if (
    problems.intact(['rules']) &&
    problems.intact(['modifications']) &&
    (doc.rules ?? []).length === 0 &&
    (doc.modifications ?? []).length === 0
  ) {
    problems.add([], 'a policy needs rules (what it denies) or modifications (what it adds to allowed runs)');
  }
  const rules = (Array.isArray(doc.rules) ? doc.rules : []).map((rule, i) => {
    const [key, spec] = Object.entries(rule)[0] ?? [];
    return problems.part(['rules', i, key], () => sharedRule(key, spec, i, shared));
  });
  const match = problems.part(['match'], () => sharedScope(doc.match, false, shared));
  const exclude = problems.part(['exclude'], () => sharedScope(doc.exclude, true, shared));
  const message =
    doc.message === undefined ? undefined : problems.part(['message'], () => compileTemplate(doc.message as string));
  const modifications = (Array.isArray(doc.modifications) ? doc.modifications : []).map((m, i) =>
    problems.part(['modifications', i, 'value'], () => compileModification(m)),
  );
  const whileRunning =
    doc.whileRunning === undefined || !problems.intact(['whileRunning']) || rules.some((r) => r === undefined)
      ? undefined
      : compileWhileRunning(doc.whileRunning, rules as CompiledRule[]);
  if (typeof whileRunning === 'string') problems.add(['whileRunning'], whileRunning, 'error', 'key');
  if (doc.whileRunning === undefined) deadMenUnguarded(doc.rules, problems);
  if (problems.hasErrors) return undefined;
  const head = {
    name: doc.name,
    mode: doc.mode ?? 'enforce',
    priority: doc.priority ?? 100,
    source: { file: parsed.file, ...parsed.locate([]) },
    rules: rules as CompiledRule[],
  };
  const passed = passOutcome(head);
  return policyOf({
    name: head.name,
    description: doc.description,
    mode: head.mode,
    priority: head.priority,
    source: head.source,
    matchSpec: doc.match,
    match: match as CompiledScope,
    exclude: exclude as CompiledScope,
    rules: head.rules,
    message,
    modifications: modifications as CompiledModification[],
    passed,
    whileRunning: whileRunning as CompiledPolicy['whileRunning'],
  });
}

/** A `deadMan` watches a run while it is in progress: on a policy that does not guard runs it would never act. */
function deadMenUnguarded(rules: PolicyDoc['rules'], problems: DocumentProblems): void {
  (Array.isArray(rules) ? rules : []).forEach((rule, i) => {
    const [key, spec] = Object.entries(rule ?? {})[0] ?? [];
    if (spec === null || typeof spec !== 'object' || !('deadMan' in spec)) return;
    problems.add(
      ['rules', i, key, 'deadMan'],
      'deadMan watches a run while it is in progress: the policy needs whileRunning (docs/guard.md, "Dead man")',
      'error',
      'key',
    );
  });
}

function compileModification(m: Modification): CompiledModification {
  if (typeof m.value !== 'string')
    return { type: m.type, propertyKey: m.propertyKey, constant: m.value, render: () => m.value };
  const template = compileTemplate(m.value, MODIFICATION_PLACEHOLDERS);
  const constant = /\{\{/.test(m.value) ? undefined : m.value;
  return { type: m.type, propertyKey: m.propertyKey, constant, render: (values) => template(values) };
}

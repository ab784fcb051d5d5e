import { ajv, toLocatedErrors } from '../validation/ajv';
import { pathText, type FieldPath } from '../validation/field-path';
import type { CompiledException, CompiledModification, CompiledPolicy } from './compiled';
import { DOCUMENT_SCHEMAS, type DocumentKind } from './document-schema';
import type { LoadProblem } from './load-error';
import { RuleSpecError } from './rule-kind';
import { RULES_BY_KEY } from './rules';
import { compileScope, type CompiledScope, type ScopeSpec } from './scope';
import { passOutcome, passResult } from './policy-texts';
import { compileTemplate } from './template';
import { ruleAnswer } from './facts';
import type { CompiledRule, Mode, Modification } from './types';
import type { ParsedDocument } from './yaml-source';

const validators = Object.fromEntries(
  Object.entries(DOCUMENT_SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)]),
) as Record<DocumentKind, ReturnType<typeof ajv.compile>>;

export const MODIFICATION_PLACEHOLDERS = ['decisionId', 'revision', 'policy', 'now', 'experimentKey', 'team', 'environment', 'executionId'];

export type CompiledDocument =
  | { kind: 'Policy'; policy: CompiledPolicy }
  | { kind: 'Exception'; exception: CompiledException }
  | { kind: 'EnvironmentAliases'; aliases: Record<string, string[]> };

type Path = FieldPath;

/**
 * What the documents of one load compile once and share: rule checks by kind and spec, scopes by
 * spec. Policies that repeat a rule or a scope share one compiled object (and, within a request, its
 * answer), so a large set holds and touches far fewer objects.
 */
export interface SharedParts {
  checks: Map<string, Omit<CompiledRule, 'kind' | 'path'>>;
  scopes: Map<string, CompiledScope>;
}

export const sharedParts = (): SharedParts => ({ checks: new Map(), scopes: new Map() });

/**
 * The text two specs share exactly when they are the same value: JSON of plain data. JSON alone
 * would not do: it writes .inf, -.inf and .nan (YAML numbers) all as null and -0 as 0, so a
 * condition comparing with .inf would share the check of one comparing with null. A spec holding
 * such a number, or anything but plain data, gets no key and is compiled on its own.
 */
export function sharingKey(value: unknown): string | undefined {
  let exact = true;
  const text = JSON.stringify(value, function check(this: Record<string, unknown>, key: string, v: unknown) {
    // The value before toJSON (a Date would already be its text in `v`).
    const original = this[key];
    if (typeof original === 'number' && (!Number.isFinite(original) || Object.is(original, -0))) exact = false;
    else if (typeof original === 'bigint' || typeof original === 'function' || typeof original === 'symbol') exact = false;
    else if (typeof original === 'object' && original !== null && !Array.isArray(original)) {
      const proto = Object.getPrototypeOf(original) as unknown;
      if (proto !== Object.prototype && proto !== null) exact = false;
    }
    return v;
  });
  return exact && text !== undefined ? text : undefined;
}

/** The compiled scope of this spec, compiled once per load. */
function scopeOf(spec: ScopeSpec | undefined, isExclude: boolean, shared: SharedParts): CompiledScope {
  const specKey = sharingKey(spec ?? null);
  if (specKey === undefined) return compileScope(spec, isExclude);
  const key = `${isExclude ? 'exclude' : 'match'}\n${specKey}`;
  let scope = shared.scopes.get(key);
  if (!scope) {
    scope = compileScope(spec, isExclude);
    shared.scopes.set(key, scope);
  }
  return scope;
}

/**
 * Validates one YAML document against its kind's schema, then compiles it. Problems are located;
 * parts of a policy that can no longer apply at `now` (an ended freeze) are warnings. `shared` is
 * shared by the documents of one load.
 */
export function compileDocument(doc: ParsedDocument, now: Date = new Date(), shared: SharedParts = sharedParts()): { compiled?: CompiledDocument; problems: LoadProblem[] } {
  const problem = (path: Path, message: string, severity: LoadProblem['severity'] = 'error'): LoadProblem => ({
    file: doc.file, ...doc.locate(path), path: pathText(path), message, severity,
  });
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problems: [problem([], 'a policy document must be a mapping with a `kind`')] };
  }
  const kind = (value as { kind?: unknown }).kind;
  // Own keys only: `kind: toString` must be an unknown kind, not a member of Object.prototype.
  if (typeof kind !== 'string' || !Object.hasOwn(DOCUMENT_SCHEMAS, kind)) {
    const known = Object.keys(DOCUMENT_SCHEMAS).join(', ');
    return { problems: [problem(kind === undefined ? [] : ['kind'], `kind must be one of ${known}${kind === undefined ? ' (it is missing)' : `, got ${JSON.stringify(kind)}`}`)] };
  }
  const validate = validators[kind as DocumentKind];
  if (!validate(value)) {
    const problems = toLocatedErrors(validate.errors).map((e) => problem(e.path, e.unknownKey !== undefined && e.path.at(-3) === 'rules'
      ? `unknown rule kind "${e.unknownKey}"; known kinds: ${[...RULES_BY_KEY.keys()].join(', ')}`
      : e.message));
    return { problems: dedupe(problems) };
  }
  try {
    switch (kind as DocumentKind) {
      case 'Policy': {
        const policy = compilePolicy(value as PolicyDoc, doc, shared);
        return { compiled: { kind: 'Policy', policy }, problems: staleWarnings(policy, now, problem) };
      }
      case 'Exception': return { compiled: { kind: 'Exception', exception: compileException(value as ExceptionDoc, doc, shared) }, problems: [] };
      case 'EnvironmentAliases': return { compiled: { kind: 'EnvironmentAliases', aliases: (value as { aliases: Record<string, string[]> }).aliases }, problems: [] };
    }
  } catch (err) {
    if (err instanceof LocatedSpecError) return { problems: [problem(err.path, err.message)] };
    throw err;
  }
}

function staleWarnings(policy: CompiledPolicy, now: Date, problem: (path: Path, message: string, severity: LoadProblem['severity']) => LoadProblem): LoadProblem[] {
  return policy.rules.flatMap((rule, i) => (rule.staleParts?.(now) ?? []).map((part) =>
    problem(['rules', i, rule.kind, ...part.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))], part.message, 'warning')));
}

function dedupe(problems: LoadProblem[]): LoadProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.line}:${p.col}:${p.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

class LocatedSpecError extends Error {
  constructor(message: string, readonly path: Path) { super(message); }
}

function at<T>(path: Path, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RuleSpecError) throw new LocatedSpecError(err.message, [...path, ...err.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))]);
    throw err;
  }
}

interface PolicyDoc {
  name: string; description?: string; mode?: Mode; priority?: number;
  match?: ScopeSpec; exclude?: ScopeSpec;
  rules?: Array<Record<string, unknown>>;
  message?: string;
  modifications?: Modification[];
}

function compilePolicy(doc: PolicyDoc, parsed: ParsedDocument, shared: SharedParts): CompiledPolicy {
  if ((doc.rules ?? []).length === 0 && (doc.modifications ?? []).length === 0) {
    throw new LocatedSpecError('a policy needs rules (what it denies) or modifications (what it adds to allowed runs)', []);
  }
  const rules: CompiledRule[] = (doc.rules ?? []).map((rule, i) => {
    const [key, spec] = Object.entries(rule)[0];
    const kind = RULES_BY_KEY.get(key);
    if (!kind) throw new LocatedSpecError(`unknown rule kind "${key}"`, ['rules', i, key]);
    // The spec after validation (defaults filled in): the same value is the same check.
    const specKey = sharingKey(spec);
    const same = specKey === undefined ? undefined : `${key}\n${specKey}`;
    let compiled = same === undefined ? undefined : shared.checks.get(same);
    if (!compiled) {
      compiled = { ...at(['rules', i, key], () => kind.compile(spec as never)), answer: ruleAnswer() };
      if (same !== undefined) shared.checks.set(same, compiled);
    }
    return { kind: key, path: `rules[${i}].${key}`, ...compiled };
  });
  const head = { name: doc.name, mode: doc.mode ?? 'enforce', priority: doc.priority ?? 100, source: { file: parsed.file, ...parsed.locate([]) }, rules };
  const passed = passResult(head);
  // One literal with every field (no spread of a finished policy): every policy then has the same
  // shape, and the property reads on the decision path stay monomorphic.
  return {
    name: head.name,
    description: doc.description,
    mode: head.mode,
    priority: head.priority,
    source: head.source,
    matchSpec: doc.match,
    match: scopeOf(doc.match, false, shared),
    exclude: scopeOf(doc.exclude, true, shared),
    rules,
    message: doc.message === undefined ? undefined : at(['message'], () => compileTemplate(doc.message as string)),
    modifications: (doc.modifications ?? []).map((m, i) => at(['modifications', i, 'value'], () => compileModification(m))),
    passed,
    passedOutcome: passOutcome(passed),
  };
}

function compileModification(m: Modification): CompiledModification {
  if (typeof m.value !== 'string') return { type: m.type, propertyKey: m.propertyKey, constant: m.value, render: () => m.value };
  const template = compileTemplate(m.value, MODIFICATION_PLACEHOLDERS);
  const constant = /\{\{/.test(m.value) ? undefined : m.value;
  return { type: m.type, propertyKey: m.propertyKey, constant, render: (values) => template(values) };
}

interface ExceptionDoc { name: string; policy: string; owner: string; reason: string; expires: string; match?: ScopeSpec }

function compileException(doc: ExceptionDoc, parsed: ParsedDocument, shared: SharedParts): CompiledException {
  const expires = new Date(doc.expires);
  if (Number.isNaN(expires.getTime())) throw new LocatedSpecError(`expires is not a valid time: ${doc.expires}`, ['expires']);
  return {
    name: doc.name, policy: doc.policy, owner: doc.owner, reason: doc.reason, expires,
    match: scopeOf(doc.match, false, shared),
    source: { file: parsed.file, ...parsed.locate([]) },
  };
}

import { fieldNamesOf, onePerMistake, schemaSuggestion } from './schema-suggestion';
import { toLocatedErrors, validated } from '../../validation/field-errors';
import type { Validator } from '../../validation/validator';
import {
  validateAliases,
  validateException,
  validateExceptionSettings,
  validatePolicy,
} from './generated/document-schema';
import { pathText, type FieldPath } from '../../validation/field-path';
import type {
  CompiledException,
  CompiledModification,
  CompiledPolicy,
  CompiledRule,
  ExceptionSettings,
  RuleCheck,
} from '../core/compiled';
import { parseDuration } from '../../syntax/duration';
import { EXCEPTION_FIELD_HINTS } from './exception-checks';
import { DOCUMENT_SCHEMAS, type DocumentKind } from './document-schema';
import { unknownKindMessage } from './unknown-kind';
import type { LoadProblem } from './load-error';
import { RuleSpecErrors } from '../core/rule-kind';
import { RuleSpecError } from '../core/rule-spec-error';
import { RULES_BY_KEY } from '../rules';
import type { CompiledScope, ScopeSpec } from '../core/compiled-scope';
import { compileScope } from '../engine/scope';
import { passOutcome } from '../engine/policy-texts';
import { policyOf, ruleOf } from '../core/shapes';
import { compileTemplate } from '../core/compile-template';
import type { Mode, Modification } from '../core/decision';
import type { ParsedDocument } from './yaml-source';
import { emptyKeyHint, emptyKeysFollowedBySiblings } from './indentation-hints';
import { compileWhileRunning, type WhileRunningSpec } from './while-running';

/** DOCUMENT_SCHEMAS, precompiled (scripts/build-validators.js). */
const validators: Record<DocumentKind, Validator<unknown>> = {
  Policy: validatePolicy,
  Exception: validateException,
  EnvironmentAliases: validateAliases,
  ExceptionSettings: validateExceptionSettings,
};

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

export type CompiledDocument =
  | { kind: 'Policy'; policy: CompiledPolicy }
  | { kind: 'Exception'; exception: CompiledException }
  | { kind: 'EnvironmentAliases'; aliases: Record<string, string[]> }
  | { kind: 'ExceptionSettings'; settings: ExceptionSettings };

type Path = FieldPath;

/**
 * What the documents of one load compile once and share: rule checks by kind and spec, scopes by
 * spec. Policies that repeat a rule or a scope share one compiled object (and, within a decision, its
 * answer, kept in the decision's context), so a large set holds and touches far fewer objects.
 */
export interface SharedParts {
  checks: Map<string, RuleCheck>;
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
    else if (typeof original === 'bigint' || typeof original === 'function' || typeof original === 'symbol')
      exact = false;
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
 * Where the problems of one document are collected: schema errors first, then every semantic
 * problem of each part (rule, scope, message, modification) the schema found intact. A part that
 * fails does not stop the others, so `validate` shows every problem of a document at once.
 */
class Problems {
  readonly list: LoadProblem[] = [];
  private readonly broken: Path[] = [];
  /** Strings with a broken grammar (`syntax`): reported, but the part holding them is still checked. */
  private readonly badStrings: Array<{ path: Path; message: string }> = [];
  constructor(private readonly doc: ParsedDocument) {}

  add(path: Path, message: string, severity: LoadProblem['severity'] = 'error', at: 'key' | 'value' = 'value'): void {
    this.list.push({ file: this.doc.file, ...this.doc.locate(path, at), path: pathText(path), message, severity });
  }

  /**
   * A schema error at `path`: the part holding it is not compiled (its spec has the wrong shape).
   * A string whose own grammar is broken (a time zone, a glob) leaves the shape sound: the part is
   * still compiled, so one run also reports the part's other problems (every window of a
   * timeWindow whose zone is misspelt).
   */
  schema(path: Path, message: string, atKey: boolean, badString = false): void {
    this.add(path, message, 'error', atKey ? 'key' : 'value');
    if (badString) this.badStrings.push({ path, message });
    else this.broken.push(path);
  }

  /** Whether no schema error lies inside the part at `path` (or on the way to it). */
  intact(path: Path): boolean {
    return !this.broken.some((b) =>
      b.length >= path.length ? path.every((p, i) => b[i] === p) : b.length > 0 && b.every((p, i) => path[i] === p),
    );
  }

  /** Runs the compilation of one part; its RuleSpecErrors become located problems. */
  part<T>(path: Path, compile: () => T): T | undefined {
    if (!this.intact(path)) return undefined;
    const within = (inner: Path, outer: Path) => inner.length >= outer.length && outer.every((p, i) => inner[i] === p);
    const badStrings = this.badStrings.filter((b) => within(b.path, path));
    try {
      return compile();
    } catch (err) {
      const errors = err instanceof RuleSpecErrors ? err.errors : err instanceof RuleSpecError ? [err] : undefined;
      // A compiler meeting a string already reported as malformed may fail in its own way.
      if (!errors) {
        if (badStrings.length > 0) return undefined;
        throw err;
      }
      for (const e of errors) {
        const at = [...path, ...e.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
        // Said already: the bad string itself, or its message again from the compiler.
        if (!badStrings.some((b) => within(at, b.path) || b.message === e.message)) this.add(at, e.message);
      }
      return undefined;
    }
  }

  get hasErrors(): boolean {
    return this.list.some((p) => p.severity === 'error');
  }
}

/**
 * Validates one YAML document against its kind's schema, then compiles it. Problems are located;
 * parts of a policy that can no longer apply at `now` (an ended freeze) are warnings. `shared` is
 * shared by the documents of one load.
 */
export function compileDocument(
  doc: ParsedDocument,
  now: Date = new Date(),
  shared: SharedParts = sharedParts(),
): { compiled?: CompiledDocument; problems: LoadProblem[] } {
  const problems = new Problems(doc);
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add([], 'a policy document must be a mapping with a `kind`');
    return { problems: problems.list };
  }
  const kind = (value as { kind?: unknown }).kind;
  // Own keys only: `kind: toString` must be an unknown kind, not a member of Object.prototype.
  if (typeof kind !== 'string' || !Object.hasOwn(DOCUMENT_SCHEMAS, kind)) {
    problems.add(kind === undefined ? [] : ['kind'], unknownKindMessage(kind, value, doc.file));
    return { problems: problems.list };
  }
  const validate = validators[kind as DocumentKind];
  if (!validate(value)) {
    const hint = indentationHint(value);
    for (const e of onePerMistake(toLocatedErrors(validate.errors, validated(validate, value)), FIELD_NAMES)) {
      const message =
        e.unknownKey !== undefined && e.path.at(-3) === 'rules'
          ? `unknown rule kind "${e.unknownKey}"; known kinds: ${[...RULES_BY_KEY.keys()].join(', ')}`
          : kind === 'Exception'
            ? withExceptionHint(e.message)
            : e.message;
      problems.schema(
        e.path,
        hint(e.path, `${message}${schemaSuggestion(e, FIELD_NAMES, e.path.at(-3) !== 'rules')}`),
        e.atKey === true,
        e.syntax === true,
      );
    }
  }
  const compiled = compileKind(kind as DocumentKind, value, doc, shared, problems);
  if (problems.hasErrors || compiled === undefined) return { problems: problems.list };
  const stale = compiled.kind === 'Policy' ? staleWarnings(compiled.policy, now) : [];
  for (const w of stale) problems.add(w.path, w.message, 'warning');
  return { compiled, problems: problems.list };
}

/** Every field name the document schemas know (`createdBy`, `approverNotStarter`, ...): what a misspelt key is compared with. */
const FIELD_NAMES: readonly string[] = fieldNamesOf(Object.values(DOCUMENT_SCHEMAS));

/** `reason is required` -> the same, with what to write (exception-checks.ts). */
function withExceptionHint(message: string): string {
  const field = /^(\w+) is required$/.exec(message)?.[1];
  const hint = field === undefined ? undefined : EXCEPTION_FIELD_HINTS[field];
  return hint === undefined ? message : `${message}: ${hint}`;
}

function compileKind(
  kind: DocumentKind,
  value: object,
  doc: ParsedDocument,
  shared: SharedParts,
  problems: Problems,
): CompiledDocument | undefined {
  switch (kind) {
    case 'Policy': {
      const policy = compilePolicy(value as PolicyDoc, doc, shared, problems);
      return policy && { kind: 'Policy', policy };
    }
    case 'Exception': {
      const exception = compileException(value as ExceptionDoc, doc, shared, problems);
      return exception && { kind: 'Exception', exception };
    }
    case 'EnvironmentAliases':
      return { kind: 'EnvironmentAliases', aliases: (value as { aliases: Record<string, string[]> }).aliases };
    case 'ExceptionSettings': {
      const { maxDuration, approverNotStarter } = value as { maxDuration: string; approverNotStarter?: boolean };
      const settings = {
        maxDurationMs: parseDuration(maxDuration) ?? 0,
        maxDuration,
        approverNotStarter: approverNotStarter === true,
        source: { file: doc.file, ...doc.locate([]) },
      };
      // A missing or malformed maxDuration is the schema's error (or a misspelt key's did-you-mean), said once.
      const parsed = typeof maxDuration === 'string' ? parseDuration(maxDuration) : undefined;
      if (parsed !== undefined && parsed <= 0)
        problems.add(['maxDuration'], 'maxDuration must be longer than 0 (e.g. 7d)');
      return { kind: 'ExceptionSettings', settings };
    }
  }
}

function staleWarnings(policy: CompiledPolicy, now: Date): Array<{ path: Path; message: string }> {
  return policy.rules.flatMap((rule, i) =>
    (rule.staleParts?.(now) ?? []).map((part) => ({
      path: ['rules', i, rule.kind, ...part.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))],
      message: part.message,
    })),
  );
}

/**
 * Adds the hint about an empty key followed by its would-be children (indentation-hints.ts) to the
 * first error about that mapping, the empty key or one of the keys after it; once per empty key.
 */
function indentationHint(value: unknown): (path: Path, message: string) => string {
  const pending = emptyKeysFollowedBySiblings(value);
  return (path, message) => {
    const i = pending.findIndex(
      (e) =>
        path.length >= e.mapping.length &&
        path.length <= e.mapping.length + 1 &&
        e.mapping.every((p, j) => path[j] === p) &&
        (path.length === e.mapping.length || [e.key, ...e.siblings].includes(String(path.at(-1)))),
    );
    if (i < 0) return message;
    const [found] = pending.splice(i, 1);
    return `${message} (hint: ${emptyKeyHint(found)})`;
  };
}

interface PolicyDoc {
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

function compilePolicy(
  doc: PolicyDoc,
  parsed: ParsedDocument,
  shared: SharedParts,
  problems: Problems,
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
    return problems.part(['rules', i, key], () => compileRule(key, spec, i, shared));
  });
  const match = problems.part(['match'], () => scopeOf(doc.match, false, shared));
  const exclude = problems.part(['exclude'], () => scopeOf(doc.exclude, true, shared));
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
function deadMenUnguarded(rules: PolicyDoc['rules'], problems: Problems): void {
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

/** One rule, compiled once per load for every policy that repeats its kind and spec. */
function compileRule(key: string, spec: unknown, i: number, shared: SharedParts): CompiledRule {
  const kind = RULES_BY_KEY.get(key);
  if (!kind) throw new RuleSpecError(`unknown rule kind "${key}"`);
  // The spec after validation (defaults filled in): the same value is the same check.
  const specKey = sharingKey(spec);
  const same = specKey === undefined ? undefined : `${key}\n${specKey}`;
  let compiled = same === undefined ? undefined : shared.checks.get(same);
  if (!compiled) {
    compiled = kind.compile(spec as never);
    if (same !== undefined) shared.checks.set(same, compiled);
  }
  return ruleOf({ kind: key, path: `rules[${i}].${key}`, ...compiled });
}

function compileModification(m: Modification): CompiledModification {
  if (typeof m.value !== 'string')
    return { type: m.type, propertyKey: m.propertyKey, constant: m.value, render: () => m.value };
  const template = compileTemplate(m.value, MODIFICATION_PLACEHOLDERS);
  const constant = /\{\{/.test(m.value) ? undefined : m.value;
  return { type: m.type, propertyKey: m.propertyKey, constant, render: (values) => template(values) };
}

interface ExceptionDoc {
  name: string;
  policy: string;
  owner: string;
  reason: string;
  expires: string;
  requestedBy?: string;
  approvedBy?: string;
  maxUses?: number;
  match?: ScopeSpec;
}

function compileException(
  doc: ExceptionDoc,
  parsed: ParsedDocument,
  shared: SharedParts,
  problems: Problems,
): CompiledException | undefined {
  const expires = new Date(doc.expires);
  if (typeof doc.expires === 'string' && problems.intact(['expires']) && Number.isNaN(expires.getTime()))
    problems.add(['expires'], `expires is not a valid time: ${doc.expires}`);
  if (typeof doc.reason === 'string' && problems.intact(['reason']) && doc.reason.trim() === '')
    problems.add(['reason'], 'reason is blank: say why the policy may be waived (the change, the approval)');
  for (const field of ['requestedBy', 'approvedBy'] as const)
    if (typeof doc[field] === 'string' && problems.intact([field]) && doc[field].trim() === '')
      problems.add([field], `${field} is blank: name one Steadybit username or email`);
  const match = problems.part(['match'], () => scopeOf(doc.match, false, shared));
  if (problems.hasErrors || match === undefined) return undefined;
  return {
    name: doc.name,
    policy: doc.policy,
    owner: doc.owner,
    reason: doc.reason,
    expires,
    // Spaces around a name are not part of it: messages quote the person, not the padding.
    requestedBy: doc.requestedBy?.trim(),
    approvedBy: doc.approvedBy?.trim(),
    maxUses: doc.maxUses,
    approverNotStarter: false,
    match,
    source: { file: parsed.file, ...parsed.locate([]) },
  };
}

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
import type { CompiledException, CompiledPolicy, ExceptionSettings } from '../core/compiled';
import { parseDuration } from '../../syntax/duration';
import { EXCEPTION_FIELD_HINTS } from './exception-checks';
import { DOCUMENT_SCHEMAS, type DocumentKind } from './document-schema';
import { unknownKindMessage } from './unknown-kind';
import type { LoadProblem } from './load-error';
import { RULES_BY_KEY } from '../rules';
import type { DocumentPlace, ParsedDocument } from './yaml-source';
import { indentationHint } from './indentation-hints';
import { DocumentProblems } from './document-problems';
import { compilePolicy, type PolicyDoc } from './compile-policy';
import { compileException, type ExceptionDoc } from './compile-exception';
import { sharedParts, type SharedParts } from './shared-parts';

/** DOCUMENT_SCHEMAS, precompiled (scripts/build-validators.js). */
const validators: Record<DocumentKind, Validator<unknown>> = {
  Policy: validatePolicy,
  Exception: validateException,
  EnvironmentAliases: validateAliases,
  ExceptionSettings: validateExceptionSettings,
};

export type CompiledDocument =
  | { kind: 'Policy'; policy: CompiledPolicy }
  | { kind: 'Exception'; exception: CompiledException }
  | { kind: 'EnvironmentAliases'; aliases: Record<string, string[]> }
  | { kind: 'ExceptionSettings'; settings: ExceptionSettings };

type Path = FieldPath;

/**
 * Validates one YAML document against its kind's schema, then compiles it; problems are located.
 * The same whenever it is compiled: what depends on the time is staleWarnings. `shared` is shared
 * by the documents of one load.
 */
export function compileDocument(
  doc: ParsedDocument,
  shared: SharedParts = sharedParts(),
): { compiled?: CompiledDocument; problems: LoadProblem[] } {
  const problems = new DocumentProblems(doc);
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
  problems: DocumentProblems,
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

/** The parts of a compiled policy that can no longer apply at `now` (an ended freeze), as warnings at `place`. */
export function staleWarnings(policy: CompiledPolicy, now: Date, place: DocumentPlace): LoadProblem[] {
  return policy.rules.flatMap((rule, i) =>
    (rule.staleParts?.(now) ?? []).map((part) => {
      const path: Path = ['rules', i, rule.kind, ...part.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
      return {
        file: place.file,
        ...place.locate(path),
        path: pathText(path),
        message: part.message,
        severity: 'warning' as const,
      };
    }),
  );
}

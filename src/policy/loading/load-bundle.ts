import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { CompiledException, CompiledPolicy, ExceptionSettings, PolicyBundle } from '../core/compiled';
import { assembleBundle } from '../compile/assemble-bundle';
import { compileDocument } from '../compile/compile-document';
import { sharedParts } from '../compile/shared-parts';
import { exceptionProblems, type ExceptionField } from '../compile/exception-checks';
import { findModificationConflicts } from '../compile/modification-conflicts';
import { nameTypoWarnings } from './name-typos';
import { addDocumentReferences, noReferences } from './policy-references';
import type { LoadProblem } from '../compile/load-error';
import { parseYamlSource, type ParsedDocument, type SourceFile } from '../compile/yaml-source';

export type LoadResult =
  | { ok: true; bundle: PolicyBundle; warnings: LoadProblem[] }
  | { ok: false; problems: LoadProblem[] };

/**
 * Content hash of a set of files, independent of the order they were read in. @noble/hashes (audited,
 * no dependencies) instead of node:crypto, so the loader also runs in the playground page.
 */
export function revisionOf(sources: readonly SourceFile[]): string {
  const hash = sha256.create();
  const keyed = sources.map((s) => ({ key: s.key ?? s.file, text: s.text }));
  for (const s of keyed.sort((a, b) => a.key.localeCompare(b.key))) {
    hash.update(utf8ToBytes(s.key)).update(utf8ToBytes('\0')).update(utf8ToBytes(s.text)).update(utf8ToBytes('\0'));
  }
  return bytesToHex(hash.digest()).slice(0, 12);
}

/** The kind and name a Policy or Exception document declares, read before (and whatever) it compiles. */
function declaredName(value: unknown): { kind: 'Policy' | 'Exception'; name: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, name } = value as { kind?: unknown; name?: unknown };
  return (kind === 'Policy' || kind === 'Exception') && typeof name === 'string' ? { kind, name } : undefined;
}

/**
 * Parses, validates and compiles every document of a policy set. Pure: same sources, same result.
 * Only a set without a single error becomes a bundle; `now` dates the expired-exception warnings.
 */
export function loadBundle(sources: readonly SourceFile[], now: Date = new Date()): LoadResult {
  const problems: LoadProblem[] = [];
  const policies: CompiledPolicy[] = [];
  const exceptions: CompiledException[] = [];
  const aliases = new Map<string, string[]>();
  const firstSeen = new Map<string, string>();
  const duplicate = (what: string, name: string, where: { file: string; line: number; col: number }) => {
    const key = `${what}:${name}`;
    const prior = firstSeen.get(key);
    if (prior)
      problems.push({
        ...where,
        path: 'name',
        message: `duplicate ${what} name "${name}" (first defined at ${prior})`,
        severity: 'error',
      });
    else firstSeen.set(key, `${where.file}:${where.line}`);
  };

  let exceptionSettings: ExceptionSettings | undefined;
  const declaredPolicies = new Set<string>();
  const exceptionDocs = new Map<CompiledException, ParsedDocument>();
  const shared = sharedParts();
  // What the typo check needs is read per document: the parsed documents are not kept to the end.
  const references = noReferences();
  for (const source of sources) {
    const parsed = parseYamlSource(source);
    problems.push(...parsed.problems);
    // An emptied file (a bad merge, an editor) would drop its policies without a word: fail closed.
    if (parsed.documents.length === 0 && parsed.problems.every((p) => p.severity !== 'error'))
      problems.push({
        file: source.file,
        line: 1,
        col: 1,
        path: '',
        message:
          'the file holds no document (it is empty, or only comments): an emptied file would drop its policies without a word; restore it, or delete the file to remove them',
        severity: 'error',
      });
    for (const doc of parsed.documents) {
      addDocumentReferences(references, doc);
      const { compiled, problems: docProblems } = compileDocument(doc, now, shared);
      problems.push(...docProblems);
      // Names count whether or not the document compiled: one run reports a duplicate and the
      // errors of either copy, and an exception naming a policy with errors is not "missing".
      const named = declaredName(doc.value);
      if (named) {
        duplicate(named.kind === 'Policy' ? 'policy' : 'exception', named.name, {
          file: doc.file,
          ...doc.locate(['name']),
        });
        if (named.kind === 'Policy') declaredPolicies.add(named.name);
      }
      if (!compiled) continue;
      if (compiled.kind === 'Policy') {
        policies.push(compiled.policy);
      } else if (compiled.kind === 'Exception') {
        exceptions.push(compiled.exception);
        exceptionDocs.set(compiled.exception, doc);
      } else if (compiled.kind === 'ExceptionSettings') {
        const first = exceptionSettings?.source;
        if (first)
          problems.push({
            file: doc.file,
            ...doc.locate([]),
            path: '',
            message: `ExceptionSettings given twice (first at ${first.file}:${first.line}); keep one`,
            severity: 'error',
          });
        else exceptionSettings = compiled.settings;
      } else {
        for (const [alias, ids] of Object.entries(compiled.aliases)) {
          duplicate('environment alias', alias, { file: doc.file, ...doc.locate(['aliases', alias]) });
          aliases.set(alias, ids);
        }
      }
    }
  }

  const locate = (e: CompiledException, field: ExceptionField) => ({
    file: e.source.file,
    ...(exceptionDocs.get(e)?.locate([field]) ?? e.source),
  });
  // The set's settings reach each exception before the bundle freezes (a decision reads the exception alone).
  if (exceptionSettings?.approverNotStarter) for (const e of exceptions) e.approverNotStarter = true;
  problems.push(...exceptionProblems({ exceptions, locate, declaredPolicies, settings: exceptionSettings, now }));
  problems.push(...findModificationConflicts(policies, aliases));
  // Likely typos are looked for once the set is valid: a name with an error is reported as that.
  if (!problems.some((p) => p.severity === 'error')) problems.push(...nameTypoWarnings(references));
  if (policies.length === 0 && !problems.some((p) => p.severity === 'error')) {
    problems.push({
      file: sources[0]?.file ?? '(policy directory)',
      line: 1,
      col: 1,
      path: '',
      message: 'no policies found: refusing to run with an empty policy set (it would allow every run)',
      severity: 'error',
    });
  }

  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) return { ok: false, problems };
  policies.sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name));
  const bundle = assembleBundle({
    revision: revisionOf(sources),
    loadedAt: now,
    files: sources.map((s) => s.file),
    policies,
    exceptions,
    exceptionSettings,
    aliases,
  });
  return { ok: true, bundle, warnings: problems };
}

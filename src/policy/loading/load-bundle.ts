import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { CompiledException, CompiledPolicy, ExceptionSettings, PolicyBundle } from '../core/compiled';
import { assembleBundle } from '../compile/assemble-bundle';
import { compileDocument, staleWarnings, type CompiledDocument } from '../compile/compile-document';
import { sharedParts, type SharedParts } from '../compile/shared-parts';
import { exceptionProblems, type ExceptionField } from '../compile/exception-checks';
import { findModificationConflicts } from '../compile/modification-conflicts';
import { nameTypoWarnings } from './name-typos';
import {
  addDocumentReferences,
  addKeptReferences,
  keepReferences,
  noReferences,
  type KeptReferences,
  type PolicyReferences,
} from './policy-references';
import type { LoadProblem } from '../compile/load-error';
import { documentPlace, parseYamlSource, type DocumentPlace, type SourceFile } from '../compile/yaml-source';

export type LoadResult =
  | { ok: true; bundle: PolicyBundle; warnings: LoadProblem[] }
  | { ok: false; problems: LoadProblem[] };

/** The hex SHA-256 of a text's UTF-8 bytes. */
export type Sha256Hex = (text: string) => string;

/**
 * @noble/hashes (audited, no dependencies) instead of node:crypto, so the loader also runs in the
 * playground page; the service passes node:crypto's (policy-reloader.ts), the same digest.
 */
const nobleSha256Hex: Sha256Hex = (text) => bytesToHex(sha256(utf8ToBytes(text)));

/** Content hash of a set of files, independent of the order they were read in. */
export function revisionOf(sources: readonly SourceFile[], sha256Hex: Sha256Hex = nobleSha256Hex): string {
  const keyed = sources.map((s) => ({ key: s.key ?? s.file, text: s.text }));
  // The bytes of every key and text, each ended by a NUL, hashed at once: the same digest as one
  // update per part, without 40,000 small encodings and updates for 10,000 files.
  const all = keyed
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((s) => `${s.key}\0${s.text}\0`)
    .join('');
  return sha256Hex(all).slice(0, 12);
}

/** The kind and name a Policy or Exception document declares, read before (and whatever) it compiles. */
function declaredName(value: unknown): { kind: 'Policy' | 'Exception'; name: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, name } = value as { kind?: unknown; name?: unknown };
  return (kind === 'Policy' || kind === 'Exception') && typeof name === 'string' ? { kind, name } : undefined;
}

/** One document of a file as the loader keeps it: where it starts, the name it declares, what it compiled to. */
interface LoadedDocument {
  /** Its position among the file's documents, and where it starts: its place in a load is made from these and that load's text. */
  index: number;
  start: { line: number; col: number };
  named?: { kind: 'Policy' | 'Exception'; name: string };
  compiled?: CompiledDocument;
  /** Its problems but those that depend on the time (staleWarnings). */
  problems: LoadProblem[];
}

/**
 * What one file gives a set, the same whenever it is loaded: kept for a file whose text did not
 * change. It keeps the text's digest, not the text: a place that has to locate a problem reads the
 * text of the load that asks, the same text (docs/decisions/0030).
 */
interface LoadedFile {
  digest: string;
  /** Its syntax problems, or that it holds no document. */
  problems: LoadProblem[];
  documents: LoadedDocument[];
  /** Its references as the load that read it found them, then (kept) without their places. */
  references: PolicyReferences | KeptReferences;
}

/**
 * The files of the last load, by name, for the next one (the reloader's): a file whose text is the
 * same is not parsed or compiled again. Its compiled documents are reused as they are (nothing
 * writes to them), so a reload of 10,000 files with one changed compiles one.
 */
export interface LoadCache {
  files: Map<string, LoadedFile>;
  /** The digest a file's text is known by (the reloader passes node:crypto's SHA-256). */
  digest: Sha256Hex;
}

export const loadCache = (digest: Sha256Hex = nobleSha256Hex): LoadCache => ({ files: new Map(), digest });

function loadFile(source: SourceFile, digest: string, shared: SharedParts): LoadedFile {
  const parsed = parseYamlSource(source);
  const problems = [...parsed.problems];
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
  // What the typo check needs is read per document: the parsed values are not kept.
  const references = noReferences();
  const documents = parsed.documents.map((doc): LoadedDocument => {
    const start = doc.locate([]);
    addDocumentReferences(references, doc, documentPlace(source, doc.index, start));
    const { compiled, problems: docProblems } = compileDocument(doc, shared);
    return { index: doc.index, start, named: declaredName(doc.value), compiled, problems: docProblems };
  });
  return { digest, problems, documents, references };
}

/**
 * Parses, validates and compiles every document of a policy set. Pure: same sources, same result.
 * Only a set without a single error becomes a bundle; `now` dates the expired-exception warnings.
 * With `cache` (kept between loads of one directory), a file whose text did not change since the
 * last load is taken from it, and the cache then holds this load's files; `revision` is
 * revisionOf(sources) when the caller has it already. With `builtIns`, the bundle is the set served
 * (withBuiltIns), assembled once with them: the service's reloader (docs/decisions/0032).
 */
export function loadBundle(
  sources: readonly SourceFile[],
  now: Date = new Date(),
  {
    cache,
    revision,
    builtIns = [],
  }: { cache?: LoadCache; revision?: string; builtIns?: readonly CompiledPolicy[] } = {},
): LoadResult {
  const problems: LoadProblem[] = [];
  const policies: CompiledPolicy[] = [];
  let exceptions: CompiledException[] = [];
  const aliases = new Map<string, string[]>();
  // Where each name was first written, located only when it is written again (a position costs a parse).
  const firstSeen = new Map<string, () => string>();
  const duplicate = (what: string, name: string, place: DocumentPlace, path: string[]) => {
    const key = `${what}:${name}`;
    const prior = firstSeen.get(key);
    if (prior)
      problems.push({
        file: place.file,
        ...place.locate(path),
        path: 'name',
        message: `duplicate ${what} name "${name}" (first defined at ${prior()})`,
        severity: 'error',
      });
    else firstSeen.set(key, () => `${place.file}:${place.locate(path).line}`);
  };

  let exceptionSettings: ExceptionSettings | undefined;
  const declaredPolicies = new Set<string>();
  const exceptionPlaces = new Map<CompiledException, DocumentPlace>();
  const shared = sharedParts();
  const references = noReferences();
  const files = new Map<string, LoadedFile>();
  for (const source of sources) {
    const kept = cache?.files.get(source.file);
    const digest = cache ? cache.digest(source.text) : '';
    const reused = kept !== undefined && kept.digest === digest;
    const file = reused ? kept : loadFile(source, digest, shared);
    files.set(source.file, file);
    problems.push(...file.problems);
    if (reused) addKeptReferences(references, file.references as KeptReferences, source);
    else {
      for (const [kind, refs] of Object.entries(file.references))
        (references[kind as keyof PolicyReferences] as unknown[]).push(...refs);
      // Kept for the next load without their places: they are only read to report a typo.
      if (cache) file.references = keepReferences(file.references as PolicyReferences);
    }
    for (const { index, start, named, compiled, problems: docProblems } of file.documents) {
      const place = documentPlace(source, index, start);
      problems.push(...docProblems);
      if (compiled?.kind === 'Policy') problems.push(...staleWarnings(compiled.policy, now, place));
      // Names count whether or not the document compiled: one run reports a duplicate and the
      // errors of either copy, and an exception naming a policy with errors is not "missing".
      if (named) {
        duplicate(named.kind === 'Policy' ? 'policy' : 'exception', named.name, place, ['name']);
        if (named.kind === 'Policy') declaredPolicies.add(named.name);
      }
      if (!compiled) continue;
      if (compiled.kind === 'Policy') {
        policies.push(compiled.policy);
      } else if (compiled.kind === 'Exception') {
        exceptions.push(compiled.exception);
        exceptionPlaces.set(compiled.exception, place);
      } else if (compiled.kind === 'ExceptionSettings') {
        const first = exceptionSettings?.source;
        if (first)
          problems.push({
            file: place.file,
            ...place.locate([]),
            path: '',
            message: `ExceptionSettings given twice (first at ${first.file}:${first.line}); keep one`,
            severity: 'error',
          });
        else exceptionSettings = compiled.settings;
      } else {
        for (const [alias, ids] of Object.entries(compiled.aliases)) {
          duplicate('environment alias', alias, place, ['aliases', alias]);
          aliases.set(alias, ids);
        }
      }
    }
  }
  if (cache) cache.files = files;

  // The set's settings, and the team whose consent an exception to a policy with match.ownedBy needs,
  // reach each exception before the bundle freezes (a decision reads the exception alone), on
  // copies: the compiled exceptions may be kept for the next load.
  const owningTeams = new Map(policies.flatMap((p) => (p.match.owningTeam ? [[p.name, p.match.owningTeam]] : [])));
  const notStarter = exceptionSettings?.approverNotStarter === true;
  exceptions = exceptions.map((e) => {
    const team = owningTeams.get(e.policy);
    if (!notStarter && team === undefined) return e;
    const copy = {
      ...e,
      ...(notStarter ? { approverNotStarter: true } : {}),
      ...(team === undefined ? {} : { owningTeam: team }),
    };
    const place = exceptionPlaces.get(e);
    if (place) exceptionPlaces.set(copy, place);
    return copy;
  });
  const locate = (e: CompiledException, field: ExceptionField) => ({
    file: e.source.file,
    ...(exceptionPlaces.get(e)?.locate([field]) ?? e.source),
  });
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
    revision: revision ?? revisionOf(sources),
    loadedAt: now,
    files: sources.map((s) => s.file),
    // As withBuiltIns places them: first, then the set in bundle order.
    policies: builtIns.length === 0 ? policies : [...builtIns, ...policies],
    exceptions,
    exceptionSettings,
    aliases,
  });
  return { ok: true, bundle, warnings: problems };
}

import { stringify } from 'yaml';
import type { PolicyBundle } from '../policy/core/compiled';
import type { LoadProblem } from '../policy/compile/load-error';
import { loadPolicyTexts } from '../policy/loading/load-policy-texts';
import { readPolicyDir } from '../policy/loading/read-policy-dir';
import { parseYamlSource, type ParsedDocument, type SourceFile } from '../policy/compile/yaml-source';
import { pathSegments } from './rule-location';
import type { Doc } from './policy-set';

/**
 * A `kind: PolicyProperty` document (`*.property.yaml` beside the policies): what every run must
 * satisfy. `never` describes runs that must never be allowed, in a policy's own words: a `match`
 * and `exclude` scope, and optionally `rules`; a run is described when the scope takes it in and
 * (with rules) one of the rules would deny it, exactly as a policy with that scope and those rules
 * would decide (docs/prove.md).
 */
export interface Property {
  name: string;
  description?: string;
  file: string;
  line: number;
  never: Doc;
  /** The `never` block compiled as a policy (with the set's aliases), decided by the engine. */
  bundle: PolicyBundle;
}

/** The properties read, and what is wrong with the others: each problem at its file, line and column. */
export interface PropertyFiles {
  properties: Property[];
  problems: LoadProblem[];
}

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const PROPERTY_KEYS = new Set(['kind', 'name', 'description', 'never']);
const NEVER_KEYS = new Set(['match', 'exclude', 'rules']);
type Path = ReadonlyArray<string | number>;

/** The properties of one file; a malformed one is a problem at its `file:line:col`, and is left out. */
export function parseProperties(
  file: string,
  text: string,
  aliases: Readonly<Record<string, string[]>>,
  now: Date,
): PropertyFiles {
  const parsed = parseYamlSource({ file, text });
  const properties: Property[] = [];
  const problems = parsed.problems.filter((p) => p.severity === 'error');
  for (const doc of parsed.documents) {
    const error = (path: Path, message: string, at: 'key' | 'value' = 'key'): LoadProblem => ({
      file,
      ...doc.locate(path, at),
      path: path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join(''),
      message,
      severity: 'error',
    });
    const found = propertyOf(doc, aliases, now, error);
    if ('problem' in found) problems.push(found.problem);
    else if (properties.some((p) => p.name === found.property.name))
      problems.push(error(['name'], `property "${found.property.name}" is defined twice`, 'value'));
    else properties.push(found.property);
  }
  return { properties, problems };
}

type ErrorAt = (path: Path, message: string, at?: 'key' | 'value') => LoadProblem;

function propertyOf(
  doc: ParsedDocument,
  aliases: Readonly<Record<string, string[]>>,
  now: Date,
  error: ErrorAt,
): { property: Property } | { problem: LoadProblem } {
  const value = doc.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: error([], 'a property is a mapping (kind: PolicyProperty, name, never)') };
  const d = value as Doc;
  if (d.kind !== 'PolicyProperty')
    return {
      problem: error(
        ['kind'],
        `a *.property.yaml file holds kind: PolicyProperty documents, got ${JSON.stringify(d.kind)}`,
        'value',
      ),
    };
  for (const key of Object.keys(d))
    if (!PROPERTY_KEYS.has(key))
      return { problem: error([key], 'unknown key (a property has name, description, never)') };
  if (typeof d.name !== 'string' || !NAME.test(d.name))
    return {
      problem: error(['name'], `lower-case letters, digits and dashes, got ${JSON.stringify(d.name)}`, 'value'),
    };
  const never = d.never;
  if (never === null || typeof never !== 'object' || Array.isArray(never))
    return { problem: error(['never'], 'the runs that must never be allowed (match, exclude, rules), is missing') };
  for (const key of Object.keys(never))
    if (!NEVER_KEYS.has(key))
      return { problem: error(['never', key], 'unknown key (never has match, exclude, rules)') };
  const compiled = neverBundle(d.name, never as Doc, aliases, now);
  if ('errors' in compiled) {
    // The first of the loader's errors, at its place inside `never:` (the loader read it as a policy).
    const [first] = compiled.errors;
    return { problem: error(['never', ...pathSegments(first.path)], first.message, 'value') };
  }
  const line = doc.locate([]).line;
  const property = { name: d.name, file: doc.file, line, never: never as Doc, bundle: compiled.bundle };
  return { property: { ...property, description: typeof d.description === 'string' ? d.description : undefined } };
}

/** The `never` block as a policy named after the property, loaded by the real loader with the set's aliases. */
function neverBundle(
  name: string,
  never: Doc,
  aliases: Readonly<Record<string, string[]>>,
  now: Date,
): { bundle: PolicyBundle } | { errors: LoadProblem[] } {
  const policy: Doc = { kind: 'Policy', name: `property-${name}`, ...never };
  if (!Array.isArray(never.rules) || never.rules.length === 0) {
    delete policy.rules;
    // A scope alone: the policy only records that it applied (Judge asks whether it was skipped).
    policy.modifications = [{ type: 'set_property_value', propertyKey: 'preflightProperty', value: name }];
  }
  const texts: Record<string, string> = { 'property.yaml': stringify(policy) };
  if (Object.keys(aliases).length > 0) texts['aliases.yaml'] = stringify({ kind: 'EnvironmentAliases', aliases });
  const loaded = loadPolicyTexts(texts, now);
  if (!loaded.ok) return { errors: loaded.problems.filter((p) => p.severity === 'error') };
  return { bundle: loaded.bundle };
}

/** Every property below `dir`, and the problems of those that do not parse or compile (a name defined twice included). */
export function readProperties(dir: string, aliases: Readonly<Record<string, string[]>>, now: Date): PropertyFiles {
  return propertiesOf(readPolicyDir(dir, { properties: true }), aliases, now);
}

/** The properties of the files given (the loader's own walk found them: read-policy-dir.ts). */
export function propertiesOf(
  sources: readonly SourceFile[],
  aliases: Readonly<Record<string, string[]>>,
  now: Date,
): PropertyFiles {
  const out: PropertyFiles = { properties: [], problems: [] };
  for (const source of sources) {
    const { properties, problems } = parseProperties(source.file, source.text, aliases, now);
    out.problems.push(...problems);
    for (const p of properties)
      if (out.properties.some((q) => q.name === p.name))
        out.problems.push({
          file: p.file,
          line: p.line,
          col: 1,
          path: 'name',
          message: `property "${p.name}" is defined twice (also in ${out.properties.find((q) => q.name === p.name)?.file})`,
          severity: 'error',
        });
      else out.properties.push(p);
  }
  return out;
}

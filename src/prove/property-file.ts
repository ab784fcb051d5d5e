import { parseAllDocuments, stringify } from 'yaml';
import type { PolicyBundle } from '../policy/core/compiled';
import { formatProblem } from '../policy/compile/load-error';
import { loadPolicyTexts } from '../policy/loading/load-policy-texts';
import { readPolicyDir } from '../policy/loading/read-policy-dir';
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

export class PropertyError extends Error {}

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const PROPERTY_KEYS = new Set(['kind', 'name', 'description', 'never']);
const NEVER_KEYS = new Set(['match', 'exclude', 'rules']);

/** The properties of one file; a malformed one is a PropertyError naming `file:line:col`. */
export function parseProperties(
  file: string,
  text: string,
  aliases: Readonly<Record<string, string[]>>,
  now: Date,
): Property[] {
  const out: Property[] = [];
  for (const doc of parseAllDocuments(text)) {
    const line = doc.contents?.range ? text.slice(0, doc.contents.range[0]).split('\n').length : 1;
    const at = `${file}:${line}:1`;
    if (doc.errors.length > 0) throw new PropertyError(`${at} ${doc.errors[0].message}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw new PropertyError(`${at} a property is a mapping`);
    const d = value as Doc;
    if (d.kind !== 'PolicyProperty')
      throw new PropertyError(
        `${at} kind: a *.property.yaml file holds kind: PolicyProperty documents, got ${JSON.stringify(d.kind)}`,
      );
    for (const key of Object.keys(d))
      if (!PROPERTY_KEYS.has(key))
        throw new PropertyError(`${at} ${key}: unknown key (a property has name, description, never)`);
    if (typeof d.name !== 'string' || !NAME.test(d.name))
      throw new PropertyError(`${at} name: lower-case letters, digits and dashes, got ${JSON.stringify(d.name)}`);
    const never = d.never;
    if (never === null || typeof never !== 'object' || Array.isArray(never))
      throw new PropertyError(`${at} never: the runs that must never be allowed (match, exclude, rules), is missing`);
    for (const key of Object.keys(never))
      if (!NEVER_KEYS.has(key))
        throw new PropertyError(`${at} never.${key}: unknown key (never has match, exclude, rules)`);
    if (out.some((p) => p.name === d.name))
      throw new PropertyError(`${at} name: property "${d.name}" is defined twice`);
    out.push({
      name: d.name,
      description: typeof d.description === 'string' ? d.description : undefined,
      file,
      line,
      never: never as Doc,
      bundle: neverBundle(at, d.name, never as Doc, aliases, now),
    });
  }
  return out;
}

/** The `never` block as a policy named after the property, loaded by the real loader with the set's aliases. */
function neverBundle(at: string, name: string, never: Doc, aliases: Readonly<Record<string, string[]>>, now: Date) {
  const policy: Doc = { kind: 'Policy', name: `property-${name}`, ...never };
  if (!Array.isArray(never.rules) || never.rules.length === 0) {
    delete policy.rules;
    // A scope alone: the policy only records that it applied (Judge asks whether it was skipped).
    policy.modifications = [{ type: 'set_property_value', propertyKey: 'preflightProperty', value: name }];
  }
  const texts: Record<string, string> = { 'property.yaml': stringify(policy) };
  if (Object.keys(aliases).length > 0) texts['aliases.yaml'] = stringify({ kind: 'EnvironmentAliases', aliases });
  const loaded = loadPolicyTexts(texts, now);
  if (!loaded.ok)
    throw new PropertyError(
      `${at} never: ${loaded.problems
        .filter((p) => p.severity === 'error')
        .map((p) => formatProblem(p).replace(/^property\.yaml:\d+:\d+ /, ''))
        .join('; ')}`,
    );
  return loaded.bundle;
}

/** Every property below `dir`. */
export function readProperties(dir: string, aliases: Readonly<Record<string, string[]>>, now: Date): Property[] {
  const out: Property[] = [];
  // The loader's own walk of the directory finds them (read-policy-dir.ts): never policies.
  for (const source of readPolicyDir(dir, { properties: true })) {
    const props = parseProperties(source.file, source.text, aliases, now);
    for (const p of props)
      if (out.some((q) => q.name === p.name))
        throw new PropertyError(`${p.file}:${p.line}:1 name: property "${p.name}" is defined twice`);
    out.push(...props);
  }
  return out;
}

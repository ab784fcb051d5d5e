import { statSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { PolicyBundle } from '../policy/core/compiled';
import { formatProblem } from '../policy/compile/load-error';
import { loadPolicyDir } from '../policy/loading/load-policy-dir';
import { readPolicyDir } from '../policy/loading/read-policy-dir';
import { servedBundle } from '../policy/runtime/served-bundle';
import { BadInputError } from '../common/bad-input-error';
import type { LoadProblem } from '../policy/compile/load-error';

/** A document of the set as written (YAML to plain data): what the analysis reads the specs from. */
export type Doc = Record<string, unknown>;

/** A policy set as the analysis sees it: the bundle the service would serve, and its documents as written. */
export interface PolicySet {
  dir: string;
  bundle: PolicyBundle;
  /** `kind: Policy` documents by name. */
  policies: ReadonlyMap<string, Doc>;
  exceptions: readonly Doc[];
  /** Every `EnvironmentAliases` document's aliases, merged (alias -> ids or names). */
  aliases: Readonly<Record<string, string[]>>;
  exceptionSettings?: Doc;
}

export function docsOf(texts: readonly string[]): Doc[] {
  const out: Doc[] = [];
  for (const text of texts)
    for (const doc of parseAllDocuments(text)) {
      const value = doc.toJS() as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push(value as Doc);
    }
  return out;
}

/** A policy set that does not load: a usage error (nothing can be analysed) that keeps its problems, to annotate each. */
export class SetNotLoadedError extends BadInputError {
  constructor(
    readonly dir: string,
    readonly problems: readonly LoadProblem[],
  ) {
    super(
      `the policy set in ${dir} is invalid, so nothing can be analysed:\n${problems
        .filter((p) => p.severity === 'error')
        .map(formatProblem)
        .join('\n')}`,
    );
  }
}

/**
 * Loads `dir` as `eval` does (the loader, then the built-in policies) and reads its documents; a set
 * that does not load is a usage error listing its problems (nothing can be compared).
 */
export function readPolicySet(dir: string, now: Date, env: NodeJS.ProcessEnv): PolicySet {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new BadInputError(`${dir} is not a directory: give the directory that holds the policy YAML files`);
  const loaded = loadPolicyDir(dir, now);
  if (!loaded.ok) throw new SetNotLoadedError(dir, loaded.problems);
  const docs = docsOf(readPolicyDir(dir).map((s) => s.text));
  const policies = new Map<string, Doc>();
  const exceptions: Doc[] = [];
  const aliases: Record<string, string[]> = {};
  let exceptionSettings: Doc | undefined;
  for (const doc of docs) {
    if (doc.kind === 'Policy' && typeof doc.name === 'string') policies.set(doc.name, doc);
    else if (doc.kind === 'Exception') exceptions.push(doc);
    else if (doc.kind === 'ExceptionSettings') exceptionSettings = doc;
    else if (doc.kind === 'EnvironmentAliases' && doc.aliases && typeof doc.aliases === 'object')
      for (const [alias, ids] of Object.entries(doc.aliases as Record<string, unknown>))
        aliases[alias] = [...(aliases[alias] ?? []), ...(Array.isArray(ids) ? ids.map(String) : [])];
  }
  return { dir, bundle: servedBundle(loaded.bundle, env), policies, exceptions, aliases, exceptionSettings };
}

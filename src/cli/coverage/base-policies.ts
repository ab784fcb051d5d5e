import { statSync } from 'node:fs';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { parseYamlSource } from '../../policy/compile/yaml-source';
import { BadInputError } from '../../common/bad-input-error';

/** The policy set a change is compared with (`--coverage-changed <base-dir>`): each policy's rules, as written. */
export interface BasePolicies {
  dir: string;
  /** Policy name -> its `rules` entries as written (`{ timeWindow: {...} }`), in order. */
  rules: ReadonlyMap<string, readonly unknown[]>;
}

/**
 * Reads the base policy set of `--coverage-changed`: only what is written, nothing compiled, so a
 * base that no longer loads (the change fixes it) still compares. A file that is not valid YAML
 * contributes nothing: its policies' rules then count as added, so the check asks more, never less.
 * A directory that does not exist or cannot be read is a usage error.
 */
export function readBasePolicies(dir: string): BasePolicies {
  const where = `--coverage-changed ${dir}`;
  try {
    if (!statSync(dir).isDirectory())
      throw new BadInputError(`${where}: not a directory (give the base policy directory)`);
  } catch (err) {
    if (err instanceof BadInputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new BadInputError(
      `${where}: ${code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(err as Error).message}`}`,
    );
  }
  let sources: ReturnType<typeof readPolicyDir>;
  try {
    sources = readPolicyDir(dir);
  } catch (err) {
    throw new BadInputError(`${where}: cannot be read: ${(err as Error).message}`);
  }
  const rules = new Map<string, readonly unknown[]>();
  for (const source of sources)
    for (const doc of parseYamlSource(source).documents) {
      const v = doc.value as { kind?: unknown; name?: unknown; rules?: unknown } | null;
      if (v?.kind !== 'Policy' || typeof v.name !== 'string' || rules.has(v.name)) continue;
      rules.set(v.name, Array.isArray(v.rules) ? v.rules : []);
    }
  return { dir, rules };
}

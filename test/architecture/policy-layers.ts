/**
 * The policy language's layers, lowest first (CONTRIBUTING.md, "Where things are"). A folder of
 * src/policy/ may import its own files and the folders of a lower rank, never one of the same or a
 * higher rank; the language imports only these modules from the rest of src/.
 */
export const POLICY_LAYERS: Record<string, number> = {
  facts: 0, // the facts and needs: plain data, what a decision knows from outside the payload
  core: 1, // the compiled bundle, decisions and Steadybit's answer to them, the rule-kind contract, glob matchers, templates, the evaluation context, fact sources
  time: 2, // value languages: time windows and zones
  predicate: 2,
  'json-logic': 3,
  engine: 4, // one decision
  signals: 5, // live signals: rule specs, matchers, PromQL placeholders, the alerts and prometheus checks
  rules: 6, // one file per rule kind
  compile: 7, // a YAML document -> a checked, compiled policy, located problems; the bundle assembly
  loading: 8, // a policy set from its texts or a directory: reading files, ignored files, typo hints
  runtime: 9, // the policy set while the service runs
};

/** What the language may import from the rest of src/ (paths relative to src/, prefixes). */
export const BELOW_POLICY: readonly string[] = ['payload/', 'validation/', 'syntax/', 'common/'];

/** The layer of a file relative to src/: its folder under policy/, or undefined outside the language. */
function layerOf(file: string): string | undefined {
  const m = /^policy\/([^/]+)\//.exec(file);
  return m ? m[1] : file.startsWith('policy/') ? '(policy top)' : undefined;
}

/**
 * Every import that goes against the layers, as `from -> to` (graph: file -> imported files, relative
 * to src/). The modules below the language (BELOW_POLICY) are its ground: they import nothing from it.
 */
export function layerViolations(graph: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, imports] of Object.entries(graph)) {
    const layer = layerOf(from);
    if (layer === undefined) {
      if (BELOW_POLICY.some((below) => from.startsWith(below)))
        for (const to of imports) if (layerOf(to) !== undefined) out.push(`${from} -> ${to}`);
      continue;
    }
    for (const to of imports) {
      const target = layerOf(to);
      if (target === undefined) {
        if (!BELOW_POLICY.some((allowed) => to.startsWith(allowed))) out.push(`${from} -> ${to}`);
        continue;
      }
      if (target === layer) continue;
      const [rankFrom, rankTo] = [POLICY_LAYERS[layer], POLICY_LAYERS[target]];
      if (rankFrom === undefined || rankTo === undefined || rankTo >= rankFrom) out.push(`${from} -> ${to}`);
    }
  }
  return out;
}

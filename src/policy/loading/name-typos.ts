import type { LoadProblem } from './load-error';
import { looksLikeTypo } from './near-name';
import type { Located, PolicyReferences } from './policy-references';
import { LABEL_KEY_PREFIXES, STEADYBIT_ATTRIBUTE_KEYS } from './steadybit-attribute-keys';

interface Used {
  text: string;
  at: Located;
}

const warning = (at: Located, message: string): LoadProblem => ({
  file: at.file,
  line: at.line,
  col: at.col,
  path: at.path,
  message,
  severity: 'warning',
});

/** One answer per distinct text: a large set names the same few environments and keys many times. */
function memo(f: (text: string) => string | undefined): (text: string) => string | undefined {
  const answers = new Map<string, string | undefined>();
  return (text) => {
    if (!answers.has(text)) answers.set(text, f(text));
    return answers.get(text);
  };
}

/** How often each spelling is written, ignoring case (as environments compare). */
function counts(used: readonly Used[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const u of used) n.set(u.text.toLowerCase(), (n.get(u.text.toLowerCase()) ?? 0) + 1);
  return n;
}

/**
 * The spelling `text` is most likely a slip for: a defined name one edit away, else one written
 * more often in the set. A tie between two spellings written once each names the other, so both
 * places are shown.
 */
function likelyMeant(
  text: string,
  defined: ReadonlySet<string>,
  written: ReadonlyMap<string, number>,
): string | undefined {
  const own = written.get(text.toLowerCase()) ?? 0;
  let best: { name: string; weight: number } | undefined;
  for (const name of new Set([...defined, ...written.keys()])) {
    if (!looksLikeTypo(text, name)) continue;
    const weight = defined.has(name) ? Infinity : (written.get(name) ?? 0);
    if (weight >= own && (!best || weight > best.weight)) best = { name, weight };
  }
  return best?.name;
}

/**
 * Warnings for names that validate but are likely typos (`environments: [prodution]`,
 * `requireKeys: [k8s.namspace]`): a name the set does not define itself that is one edit away from
 * one it knows. Environments are known from the aliases (names and what they list) and from the
 * other policies; attribute keys from the keys Steadybit's extensions send and from the other
 * policies. Warnings, not errors: a name Steadybit has and the set does not is fine
 * (`preflight-gate doctor` checks names against the platform itself).
 */
export function nameTypoWarnings(refs: PolicyReferences): LoadProblem[] {
  const out: LoadProblem[] = [];
  const aliases = new Set(refs.aliases.flatMap((a) => [a.alias, ...a.ids]).map((v) => v.toLowerCase()));
  const environments = refs.environments.map((e) => ({ text: e.value, at: e }));
  const writtenEnvironments = counts(environments);
  const meantEnvironment = memo((text) => likelyMeant(text, aliases, writtenEnvironments));
  for (const e of environments) {
    if (aliases.has(e.text.toLowerCase())) continue;
    const meant = meantEnvironment(e.text);
    if (meant !== undefined) {
      out.push(
        warning(
          e.at,
          `environment "${e.text}" is one letter away from "${meant}", ${aliases.has(meant) ? 'which an alias defines' : 'which the set names elsewhere'}: did you mean "${meant}"? (a misspelt environment matches no run)`,
        ),
      );
    }
  }
  const keys = [...refs.attributes, ...refs.queryAttributes].map((a) => ({ text: a.key, at: a as Located }));
  const known = new Set(STEADYBIT_ATTRIBUTE_KEYS);
  const writtenKeys = new Map([...counts(keys)].filter(([key]) => !known.has(key)));
  const meantKey = memo((text) => likelyMeant(text, known, writtenKeys));
  for (const k of keys) {
    if (known.has(k.text) || LABEL_KEY_PREFIXES.some((p) => k.text.startsWith(p))) continue;
    const meant = meantKey(k.text);
    if (meant !== undefined) {
      out.push(
        warning(
          k.at,
          `attribute key "${k.text}" is one letter away from "${meant}", ${known.has(meant) ? 'a key Steadybit sends' : 'which the set names elsewhere'}: did you mean "${meant}"? (a misspelt key never matches what Steadybit sends)`,
        ),
      );
    }
  }
  return out;
}

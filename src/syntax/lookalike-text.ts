/**
 * Text in a policy that looks like a name Steadybit sends but can never equal it: a character
 * nobody sees (a zero-width space, a bidi mark, a no-break space pasted from a wiki), a
 * compatibility form (fullwidth `ｐｒｏｄ`, decomposed accents) or a lookalike letter of another
 * script inside a Latin word (Cyrillic `о` in `prоduction`). A `blocked: [prоduction]` would then
 * block nothing. Names are compared exactly, so each is refused at load time with its column; a
 * name that really has such a character can be listed by the environment's id instead.
 * Why refused rather than warned about: docs/decisions/0014-strict-policy-strings.md.
 */

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}]/u;
const LATIN = /\p{Script=Latin}/u;
/** Scripts whose letters pass for Latin ones (UTS #39's usual suspects). */
const LOOKALIKE_SCRIPTS: Array<[string, RegExp]> = [
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
];

/**
 * Printable ASCII (the plain space included): no character of it is invisible, each is its own
 * normal form, and every letter of it is Latin, so none of the checks below can find anything.
 * Nearly every name of a policy set is written so; testing it first skips the Unicode property
 * scans for them (the 95,000 strings of 10,000 generated policies: most of the schema's `name` checks).
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const codePoint = (c: string) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;

/** Characters nobody sees, and any space but the plain one: the first, with its column. */
export function invisibleProblem(value: string): string | undefined {
  if (PRINTABLE_ASCII.test(value)) return undefined;
  const chars = [...value];
  const at = chars.findIndex((c) => c !== ' ' && INVISIBLE.test(c));
  if (at < 0) return undefined;
  return `"${value}" has an invisible or unusual space character (${codePoint(chars[at])}) at column ${at + 1}, so it would never equal what Steadybit sends: delete it (or retype the text)`;
}

/** A word (a run of letters) that mixes Latin letters with lookalikes of another script. */
function mixedScriptProblem(value: string): string | undefined {
  for (const word of value.matchAll(/[\p{L}\p{M}]+/gu)) {
    const chars = [...word[0]];
    if (!chars.some((c) => LATIN.test(c))) continue;
    for (const [script, test] of LOOKALIKE_SCRIPTS) {
      const at = chars.findIndex((c) => test.test(c));
      if (at < 0) continue;
      const column = [...value.slice(0, word.index)].length + at + 1;
      return `"${value}" mixes Latin and ${script} letters in one word (${codePoint(chars[at])} "${chars[at]}" at column ${column} only looks like a Latin letter), so it would never equal what Steadybit sends: retype it (an environment whose name really has it can be listed by its id)`;
    }
  }
  return undefined;
}

/** Invisible characters, compatibility forms and mixed-script words; undefined when the name is plain. */
export function lookalikeProblem(value: string): string | undefined {
  if (PRINTABLE_ASCII.test(value)) return undefined;
  const invisible = invisibleProblem(value);
  if (invisible) return invisible;
  const normal = value.normalize('NFKC');
  if (normal !== value) {
    return `"${value}" is not in Unicode's normal form (it has fullwidth, ligature or decomposed characters; normalized: "${normal}"), so it would never equal what Steadybit sends: write "${normal}" (an environment whose name really has it can be listed by its id)`;
  }
  return mixedScriptProblem(value);
}

/** The text itself and each text it gives with one of its letters dropped. */
function dropOneLetter(text: string): string[] {
  const keys = [text];
  for (let i = 0; i < text.length; i++) keys.push(text.slice(0, i) + text.slice(i + 1));
  return keys;
}

/**
 * The names within one edit of a text (a letter added, dropped, changed, or two neighbours
 * swapped, as `editDistance` counts them), found without comparing the text with every name: two
 * texts one edit apart always give a common text when one letter is dropped from each, or from
 * one of them (a deletion neighbourhood, as the SymSpell spelling corrector keeps). A set naming
 * 10,000 distinct teams so asks a few dozen keys per name instead of 10,000 comparisons.
 *
 * It finds candidates only: a caller still decides each (`looksLikeTypo`). Names are compared as
 * given (lower-case them first to ignore case); `near` lists them in the order they were added.
 */
export class OneEditIndex {
  private readonly order = new Map<string, number>();
  private readonly byKey = new Map<string, string[]>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      if (this.order.has(name)) continue;
      this.order.set(name, this.order.size);
      for (const key of new Set(dropOneLetter(name))) {
        const bucket = this.byKey.get(key);
        if (bucket) bucket.push(name);
        else this.byKey.set(key, [name]);
      }
    }
  }

  /** Every name that may be within one edit of `text` (`text` itself among them if added), in the order added. */
  near(text: string): string[] {
    const found = new Set<string>();
    for (const key of dropOneLetter(text)) for (const name of this.byKey.get(key) ?? []) found.add(name);
    return [...found].sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
  }
}

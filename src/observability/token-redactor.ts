// A token goes on through letters, digits, "_", "-" and a "." between two of those: a value
// "prod" is its own token in "namespace prod." and "ns=prod", not in "production", "no-prod-runs"
// or "web-1.prod" (which, when it is a target value itself, is masked whole).

const DOT = 46;

/** A letter, digit, "_" or "-" (ASCII): a character a token goes on through. */
function isTokenChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/** Nothing of a token before `i`: not a token character, nor a "." after one. */
function startsToken(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text.charCodeAt(i - 1);
  return !isTokenChar(before) && !(before === DOT && i >= 2 && isTokenChar(text.charCodeAt(i - 2)));
}

/** Nothing of a token from `i` on: not a token character, nor a "." before one. */
function endsToken(text: string, i: number): boolean {
  if (i === text.length) return true;
  const after = text.charCodeAt(i);
  return !isTokenChar(after) && !(after === DOT && i + 1 < text.length && isTokenChar(text.charCodeAt(i + 1)));
}

/**
 * Replaces every occurrence of one of `values` that is a token of its own with `replacement`,
 * scanning left to right; where several values fit at one place, the first of the list wins (pass
 * the longest first, so that a value containing another is replaced whole). An empty value
 * replaces nothing.
 *
 * The same answers as one global pattern `(?<!token)(?:v1|v2|...)(?!token)` (what this was), but
 * its cost does not grow with the number of values: at each place where a token may start, one
 * lookup per distinct value length. A 2,000-target run has about 16,000 values; the pattern (and
 * the substring test before it, one per value and text) cost tens of milliseconds an audit line.
 * It holds nothing between calls: one redactor per list of values (per request).
 */
export function tokenRedactor(values: readonly string[], replacement: string): (text: string) => string {
  // A value's place in the list: the lower wins.
  const rank = new Map<string, number>();
  for (const [i, v] of values.entries()) if (v !== '' && !rank.has(v)) rank.set(v, i);
  if (rank.size === 0) return (text) => text;
  const lengths = [...new Set([...rank.keys()].map((v) => v.length))].sort((a, b) => a - b);

  /** The end of the value that is a token of its own at `start`, or -1. */
  const matchAt = (text: string, start: number): number => {
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    for (const length of lengths) {
      const end = start + length;
      if (end > text.length) break;
      if (!endsToken(text, end)) continue;
      const r = rank.get(text.slice(start, end));
      if (r !== undefined && r < bestRank) {
        best = end;
        bestRank = r;
      }
    }
    return best;
  };

  return (text) => {
    let out = '';
    let copied = 0;
    let start = 0;
    while (start < text.length) {
      const end = startsToken(text, start) ? matchAt(text, start) : -1;
      if (end === -1) {
        start++;
        continue;
      }
      out += text.slice(copied, start) + replacement;
      copied = start = end;
    }
    return copied === 0 ? text : out + text.slice(copied);
  };
}

import picomatch from 'picomatch';

/**
 * The glob syntax policies accept (docs/policies.md, "Globs"), checked at load time. picomatch
 * reads almost any text as some pattern: an unclosed `[` or `{` becomes a literal character, a
 * reversed range `[z-a]` an invalid regex it silently replaces by one that matches nothing. In a
 * `blocked` list either typo would disable the guardrail, so anything outside this grammar is a
 * load error naming the column:
 *
 *   `*` `**` `?`                any characters / one character
 *   `[abc]` `[a-z]` `[^a-z]`    a class: non-empty, ranges ascending, `[:alpha:]` and the other POSIX names
 *   `{a,b}` `{1..9}` `{a..f}`   alternatives (two or more, none empty, may nest) or a range
 *   `@(a|b)` `!(a)` `*(a)` `+(a)` `?(a)`   extglobs: alternatives separated by `|`, none empty
 *   `\x`                        the character x itself
 *
 * Refused as ambiguous: a bare `(`, a `|` outside an extglob, a leading `!` (picomatch negates the
 * whole pattern), `[!...]` (picomatch does not negate with `!` here: write `[^...]`), whitespace at
 * either end, and any unmatched `]`, `}` or `)`. Why: docs/decisions/strict-policy-strings.md.
 */
const MATCH_OPTIONS = { nocase: true, dot: true, bash: true, windows: false } as const;
const EXTGLOB = '@!*+?';
const POSIX_CLASSES = new Set([
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
]);
const RANGE = /^(-?\d+\.\.-?\d+(\.\.-?\d+)?|[a-zA-Z]\.\.[a-zA-Z])$/;

interface Open {
  char: '{' | '(';
  at: number;
  alternatives: number;
  empty: boolean;
}

class GlobSyntaxError extends Error {}
const fail = (message: string): never => {
  throw new GlobSyntaxError(message);
};
const col = (i: number) => `column ${i + 1}`;

/** Reads a class `[...]` starting at `start`; returns the index after its `]`. */
function readClass(p: string, start: number): number {
  let j = start + 1;
  if (p[j] === '!') fail(`"[!" at ${col(start)} is not a negation here (it matches "!"); write [^...] for "none of"`);
  if (p[j] === '^') j++;
  if (p[j] === ']') fail(`the character class at ${col(start)} is empty; write \\[\\] for the literal text "[]"`);
  while (j < p.length && p[j] !== ']') {
    if (p.startsWith('[:', j)) {
      const end = p.indexOf(':]', j + 2);
      const name = end < 0 ? '' : p.slice(j + 2, end);
      if (!POSIX_CLASSES.has(name))
        fail(
          `unknown character class "${end < 0 ? p.slice(j) : p.slice(j, end + 2)}" at ${col(j)}; known: ${[...POSIX_CLASSES].map((c) => `[:${c}:]`).join(' ')}`,
        );
      j = end + 2;
      continue;
    }
    const [low, next] = p[j] === '\\' ? [p[j + 1], j + 2] : [p[j], j + 1];
    if (low === undefined) break;
    if (p[next] === '-' && next + 1 < p.length && p[next + 1] !== ']') {
      const [high, after] = p[next + 1] === '\\' ? [p[next + 2], next + 3] : [p[next + 1], next + 2];
      if (high === undefined) break;
      if (low > high)
        fail(`the range "${low}-${high}" at ${col(j)} is reversed (nothing lies between); write ${high}-${low}`);
      j = after;
    } else j = next;
  }
  if (j >= p.length) fail(`the [ at ${col(start)} is never closed; write \\[ for a literal [`);
  return j + 1;
}

const opened = (open: Open, p: string) =>
  open.char === '{' ? `{ at ${col(open.at)}` : `${p[open.at - 1]}( at ${col(open.at - 1)}`;

/** Ends the current alternative of `open` at `i` (a separator or the closer): it may not be empty. */
function endAlternative(open: Open, i: number, p: string): void {
  const closer = open.char === '{' ? '}' : ')';
  if (open.empty && open.alternatives === 0 && p[i] === closer) fail(`the ${opened(open, p)} is empty`);
  if (open.empty) fail(`empty alternative at ${col(i)} in the ${opened(open, p)}`);
  open.alternatives++;
  open.empty = true;
}

function scan(p: string): void {
  if (p.trim() !== p) fail('it starts or ends with whitespace, which no id or key has');
  if (p[0] === '!' && p[1] !== '(')
    fail(
      'a leading "!" negates the whole pattern (it would match everything else); list what you mean, or use !(...) inside a pattern',
    );
  const stack: Open[] = [];
  const top = (): Open | undefined => stack[stack.length - 1];
  /** A character (or class, escape, nested group) that belongs to the current alternative. */
  const content = () => {
    const t = top();
    if (t) t.empty = false;
  };
  for (let i = 0; i < p.length; ) {
    const c = p[i];
    if (c === '\\') {
      if (i + 1 >= p.length) fail('it ends with a lone backslash; write \\\\ for a literal backslash');
      content();
      i += 2;
    } else if (c === '[') {
      content();
      i = readClass(p, i);
    } else if (EXTGLOB.includes(c) && p[i + 1] === '(') {
      content();
      stack.push({ char: '(', at: i + 1, alternatives: 0, empty: true });
      i += 2;
    } else if (c === '(') {
      fail(`the ( at ${col(i)} is not an extglob; write @(a|b) for alternatives or \\( for a literal (`);
    } else if (c === '{') {
      content();
      stack.push({ char: '{', at: i, alternatives: 0, empty: true });
      i++;
    } else if (c === ',' && top()?.char === '{') {
      endAlternative(top() as Open, i, p);
      i++;
    } else if (c === '|') {
      const open = top();
      if (open?.char !== '(')
        fail(`"|" at ${col(i)} is not inside an extglob; write @(a|b) or {a,b} for alternatives, \\| for a literal |`);
      endAlternative(open as Open, i, p);
      i++;
    } else if (c === '}' || c === ')') {
      const want = c === '}' ? '{' : '(';
      const open = top();
      if (open?.char !== want) fail(`the ${c} at ${col(i)} has no matching ${want}; write \\${c} for a literal ${c}`);
      const o = open as Open;
      const single = o.alternatives === 0;
      endAlternative(o, i, p);
      stack.pop();
      const body = p.slice(o.at + 1, i);
      if (c === '}' && single && !RANGE.test(body)) {
        fail(
          `the {${body}} at ${col(o.at)} has a single alternative (it would match the braces literally); write {a,b}, a range such as {1..5}, or \\{ for a literal {`,
        );
      }
      i++;
    } else if (c === ']') {
      fail(`the ] at ${col(i)} has no matching [; write \\] for a literal ]`);
    } else {
      content();
      i++;
    }
  }
  const open = stack.pop();
  if (open) fail(`the ${opened(open, p)} is never closed; write \\${open.char} for a literal ${open.char}`);
}

/** Why `pattern` is not a glob we accept (a sentence for a load error), or undefined when it is. */
export function globProblem(pattern: string): string | undefined {
  try {
    scan(pattern);
    // A last guard: what picomatch cannot turn into a regular expression would match nothing.
    picomatch.makeRe(pattern, { ...MATCH_OPTIONS, debug: true });
    return undefined;
  } catch (err) {
    if (err instanceof GlobSyntaxError) return `malformed glob "${pattern}": ${err.message}`;
    return `malformed glob "${pattern}": picomatch cannot compile it (${(err as Error).message})`;
  }
}

export { MATCH_OPTIONS as GLOB_MATCH_OPTIONS };

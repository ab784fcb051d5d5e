import type { CodeRange, GlobNode } from './glob-tree';

/**
 * A glob tree as the source of a JavaScript regular expression, for the flags `iu`: `u` so that
 * one character is one code point (`?` matches `😀`), `i` so that letters compare by Unicode simple
 * case folding. Every character but an ASCII letter or digit is written as `\u{...}`, so no
 * character of a value or a pattern can mean regex syntax. `*(a)`, `+(a)`, `?(a)` and `!(a)` have
 * no source here (undefined): a negation is no regular expression JavaScript has, and a repeated
 * group can backtrack for ever. Nor has a glob with more than one `*`: against a value that misses,
 * a regex tries every split of the value between its stars (`*a*a*a*b` took 51 s against a thousand
 * `a`s on Node 20; on Node 26.12.1, 1.2 s of CPU against 400 and 80 s against 700:
 * bench/shapes/backtrack.js). glob-positions.ts matches those, in time linear in the value per node.
 */
export function globSource(nodes: readonly GlobNode[]): string | undefined {
  if (starCount(nodes) > 1) return undefined;
  let out = '';
  for (const node of nodes) {
    const part = nodeSource(node);
    if (part === undefined) return undefined;
    out += part;
  }
  return out;
}

/** The `*` of a glob, in its groups too. */
function starCount(nodes: readonly GlobNode[]): number {
  let count = 0;
  for (const node of nodes) {
    if (node.kind === 'any') count++;
    else if (node.kind === 'oneOf' || node.kind === 'repeat' || node.kind === 'noneOf')
      for (const alternative of node.alternatives) count += starCount(alternative);
  }
  return count;
}

function nodeSource(node: GlobNode): string | undefined {
  switch (node.kind) {
    case 'any':
      // Lazy: the same answer for a whole-value match, and far less backtracking before `shutdown`.
      return '[^]*?';
    case 'oneOf': {
      const alternatives = node.alternatives.map(globSource);
      return alternatives.every((a) => a !== undefined) ? `(?:${alternatives.join('|')})` : undefined;
    }
    case 'repeat':
    case 'noneOf':
      return undefined;
    default:
      return leafSource(node);
  }
}

/** The source of one text, `?` or class: what matches exactly one of them (the leaves of a glob). */
export function leafSource(node: GlobNode & { kind: 'text' | 'one' | 'class' }): string {
  if (node.kind === 'one') return '[^]';
  if (node.kind === 'class') return `[${node.negated ? '^' : ''}${node.ranges.map(rangeSource).join('')}]`;
  let out = '';
  for (const c of node.text) out += /^[A-Za-z0-9]$/.test(c) ? c : codeSource(c.codePointAt(0) as number);
  return out;
}

const codeSource = (code: number) => `\\u{${code.toString(16)}}`;
const rangeSource = ([from, to]: CodeRange) =>
  from === to ? codeSource(from) : `${codeSource(from)}-${codeSource(to)}`;

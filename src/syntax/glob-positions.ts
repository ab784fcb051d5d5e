import type { GlobNode } from './glob-tree';
import { leafSource } from './glob-regex';

/**
 * A glob tree matched by the positions it can reach: from a start, each node gives every index
 * (a code point boundary) where it can end, so a sequence matches when the value's end is among
 * its last node's ends. This is the meaning of glob-tree.ts taken literally, `!(a)` included (every
 * end whose text from the start is none of its alternatives), and it cannot backtrack for ever:
 * each node's ends are a set of at most the value's length plus one, and a `*` is walked once
 * from the first of its starts. Used for the globs that have no regular expression (glob-regex.ts);
 * the others take the faster regex.
 */
type Ends = (value: string, from: number) => Set<number>;

export function positionsMatcher(nodes: readonly GlobNode[]): (value: string) => boolean {
  const sequence = sequenceEnds(nodes);
  return (value) => sequence(value, 0).has(value.length);
}

function sequenceEnds(nodes: readonly GlobNode[]): Ends {
  const steps = nodes.map((node) => (node.kind === 'any' ? 'any' : nodeEnds(node)));
  return (value, from) => {
    let at = new Set([from]);
    for (const step of steps) {
      // `*` from several starts ends at every boundary after the first of them: walked once, not once per start.
      const next = step === 'any' ? new Set(boundaries(value, first(at))) : new Set<number>();
      if (step !== 'any') for (const p of at) for (const end of step(value, p)) next.add(end);
      if (next.size === 0) return next;
      at = next;
    }
    return at;
  };
}

function first(positions: ReadonlySet<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const p of positions) if (p < min) min = p;
  return min;
}

function nodeEnds(node: GlobNode): Ends {
  switch (node.kind) {
    case 'any':
      return (value, from) => new Set(boundaries(value, from));
    case 'oneOf':
      return anyOf(node.alternatives.map(sequenceEnds));
    case 'repeat': {
      const once = anyOf(node.alternatives.map(sequenceEnds));
      return (value, from) => repeated(once, node.min, node.max, value, from);
    }
    case 'noneOf': {
      const some = anyOf(node.alternatives.map(sequenceEnds));
      return (value, from) => {
        const excluded = some(value, from);
        return new Set(boundaries(value, from).filter((end) => !excluded.has(end)));
      };
    }
    default: {
      const leaf = new RegExp(leafSource(node), 'iuy');
      return (value, from) => {
        leaf.lastIndex = from;
        return leaf.test(value) ? new Set([leaf.lastIndex]) : new Set();
      };
    }
  }
}

function anyOf(alternatives: Ends[]): Ends {
  return (value, from) => {
    const out = new Set<number>();
    for (const alternative of alternatives) for (const end of alternative(value, from)) out.add(end);
    return out;
  };
}

/** The ends of `min` to `max` matches of `once` one after another; an end reached before is not walked again. */
function repeated(once: Ends, min: number, max: number, value: string, from: number): Set<number> {
  const out = new Set<number>(min === 0 ? [from] : []);
  let frontier = new Set([from]);
  for (let count = 1; count <= max && frontier.size > 0; count++) {
    const next = new Set<number>();
    for (const p of frontier) for (const end of once(value, p)) if (!out.has(end)) next.add(end);
    for (const end of next) out.add(end);
    frontier = next;
  }
  return out;
}

/** Every code point boundary from `from` to the end of the value, both included. */
function boundaries(value: string, from: number): number[] {
  const out = [from];
  for (let i = from; i < value.length; ) {
    i += (value.codePointAt(i) as number) > 0xffff ? 2 : 1;
    out.push(i);
  }
  return out;
}

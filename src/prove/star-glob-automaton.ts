/*
 * Which combinations of star globs (ASCII text and `*` only) some text matches, decided exactly
 * (docs/decisions/0045-simplest-witnesses-and-empty-glob-combinations.md): each glob is read as a
 * deterministic automaton, and the product of all of them is explored breadth first from the empty
 * text. Every combination of globs a text matches is the acceptance vector of a state reached, and
 * the first text that reaches it is its shortest text; a combination no state reached is empty.
 *
 * Why the automaton of one glob is exact: `p*m1*...*mk*s` matches w (case folded) when w starts
 * with p, then holds m1...mk in order, then ends with s after them. Taking each middle at its
 * earliest place leaves the longest rest (glob-matcher.ts searches the same way), and "the rest
 * ends with s" only gets truer as the rest grows to the left, so reading w once, left to right, with
 * the prefix matched, then each middle found as a substring (KMP), then the longest tail that is a
 * prefix of s, decides it. A literal glob is matched exactly. An empty text matches no glob.
 *
 * Why these letters suffice: the matcher folds ASCII case, and a letter that is in no glob matches
 * no glob text, so all such letters act alike: one stands for them. A value with other characters
 * acts as its ASCII folding with each character no glob text folds to replaced by that letter.
 */

/** A glob's state: its phase (0 the prefix; 1..k the middles; k+1 the tail) and how much of that part is matched; -1 dead. */
interface GlobMachine {
  parts: string[];
  literal: boolean;
}

const DEAD = -1;

/** The longest prefix of `text` that is a suffix of `text.slice(0, j) + c` (KMP without a table: the texts are short). */
function advance(text: string, j: number, c: string): number {
  let read = text.slice(0, j) + c;
  while (read.length > 0 && !text.startsWith(read)) read = read.slice(1);
  return read.length;
}

function machineOf(glob: string): GlobMachine {
  const parts = glob.toLowerCase().split('*');
  return { parts, literal: parts.length === 1 };
}

/** States as [phase, matched]; encoded as one number phase * 4096 + matched (globs are shorter than that). */
const STRIDE = 4096;

/** The same state with a finished prefix and empty middles (`**`) passed: the part the next letter is read against. */
function settle(m: GlobMachine, state: number): number {
  if (m.literal || state === DEAD) return state;
  let phase = Math.floor(state / STRIDE);
  let j = state % STRIDE;
  if (phase === 0 && j === m.parts[0].length) {
    phase = 1;
    j = 0;
  }
  const last = m.parts.length - 1;
  while (phase > 0 && phase < last && m.parts[phase] === '') phase++;
  return phase * STRIDE + j;
}

function step(m: GlobMachine, state: number, c: string): number {
  if (state === DEAD) return DEAD;
  const phase = Math.floor(state / STRIDE);
  const j = state % STRIDE;
  if (m.literal) {
    const text = m.parts[0];
    return j < text.length && text[j] === c ? j + 1 : DEAD;
  }
  const last = m.parts.length - 1;
  if (phase === 0) return m.parts[0][j] === c ? settle(m, j + 1) : DEAD;
  if (phase < last) {
    const mid = m.parts[phase];
    const next = advance(mid, j, c);
    // Found at its earliest place: what follows it is read against the next part.
    return next < mid.length ? phase * STRIDE + next : settle(m, (phase + 1) * STRIDE);
  }
  return last * STRIDE + advance(m.parts[last], j, c);
}

/** Whether the text read so far (non-empty) matches: the whole literal, or the tail matched at its end. */
function accepts(m: GlobMachine, state: number): boolean {
  if (state === DEAD) return false;
  const j = state % STRIDE;
  if (m.literal) return j === m.parts[0].length;
  const last = m.parts.length - 1;
  return Math.floor(state / STRIDE) === last && j === m.parts[last].length;
}

export interface GlobCombinations {
  /** Each combination some non-empty text matches (a '0'/'1' per glob, as written), with its shortest text. */
  texts: Map<string, string>;
  /** False when the exploration stopped at its cap: a combination not listed may still be matched. */
  complete: boolean;
}

/** At most this many product states are explored (a set of globs beyond it stays undecided: unknown). */
export const MAX_PRODUCT_STATES = 2_000;

/** Every combination of these star globs that some text matches (each glob ASCII text and `*`). */
export function globCombinations(globs: readonly string[], cap = MAX_PRODUCT_STATES): GlobCombinations {
  const machines = globs.map(machineOf);
  // Each glob's transitions, remembered: the product reads each of them many times.
  const memo = machines.map(() => new Map<number, number>());
  const move = (i: number, state: number, c: string, code: number): number => {
    const key = state * 128 + code;
    let to = memo[i].get(key);
    if (to === undefined) {
      to = step(machines[i], state, c);
      memo[i].set(key, to);
    }
    return to;
  };
  const letters = [...new Set(globs.join('').toLowerCase().replace(/\*/g, ''))];
  const fresh = [...'xqzjkv0123456789_-~'].find((c) => !letters.includes(c));
  if (fresh !== undefined) letters.push(fresh);
  const start = machines.map((m) => settle(m, 0));
  // The empty text is not among them (it matches no glob), though a state after a letter may equal the start's.
  const seen = new Map<string, string>();
  const texts = new Map<string, string>();
  let frontier: Array<[number[], string]> = [[start, '']];
  while (frontier.length > 0) {
    const next: Array<[number[], string]> = [];
    for (const [state, text] of frontier)
      for (const c of letters) {
        const code = c.charCodeAt(0);
        const to = state.map((q, i) => move(i, q, c, code));
        const key = to.join(',');
        if (seen.has(key)) continue;
        if (seen.size >= cap) return { texts, complete: false };
        const word = text + c;
        seen.set(key, word);
        const vector = machines.map((m, i) => (accepts(m, to[i]) ? '1' : '0')).join('');
        if (!texts.has(vector)) texts.set(vector, word);
        next.push([to, word]);
      }
    frontier = next;
  }
  return { texts, complete: true };
}

/** The combination of globs a text matches, as the automata read it (the tests hold it to the matcher's). */
export function automataVector(globs: readonly string[]): (text: string) => string {
  const machines = globs.map(machineOf);
  return (text) =>
    machines
      .map((m) => {
        let state = settle(m, 0);
        for (const c of text.toLowerCase()) state = step(m, state, c);
        return text !== '' && accepts(m, state) ? '1' : '0';
      })
      .join('');
}

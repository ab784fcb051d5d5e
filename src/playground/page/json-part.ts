import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { parseStrictJsonText } from '../../payload/parse-strict-json-text';
import type { PlaygroundPart, PlaygroundProblem } from '../decide-playground';

/** An editor's JSON: the value, or the text itself with the problem (where and why) when it is not JSON. */
export type JsonPart = { ok: true; value: unknown } | { ok: false; text: string; problem: PlaygroundProblem };

/** Parses a JSON editor's text as the service parses a body (duplicate keys refused). */
export function readJsonPart(text: string, part: PlaygroundPart): JsonPart {
  const parsed = parseStrictJsonText(text);
  if (parsed.ok) return { ok: true, value: parsed.value };
  const at = parsed.problem === 'syntax' ? parsed.at : undefined;
  const problem: PlaygroundProblem = { part, message: `${part} ${parsed.message}`, severity: 'error', ...at };
  return { ok: false, text, problem };
}

/** `execution.steps[1].id` -> ['execution', 'steps', 1, 'id'] (field paths as problems name them). */
function pathSegments(path: string): Array<string | number> {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1] : Number(m[2])));
}

/** The 1-based line and column of the value at a field path of a JSON text (else of its deepest parent found). */
export function locateJsonPath(text: string, path: string): { line: number; col: number } {
  const tree = parseTree(text);
  const segments = pathSegments(path);
  let offset = 0;
  for (let n = segments.length; tree && n >= 0; n--) {
    const node = findNodeAtLocation(tree, segments.slice(0, n));
    if (node) {
      offset = node.parent?.type === 'property' ? node.parent.offset : node.offset;
      break;
    }
  }
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, col: before[before.length - 1].length + 1 };
}

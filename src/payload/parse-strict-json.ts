import { isUtf8 } from 'node:buffer';
import { pathText, type FieldPath } from '../validation/field-path';
import { findDuplicateKey, mayHaveDuplicateKeys, pathAt } from './duplicate-keys';
import { jsonSyntaxError } from './json-syntax-error';

/**
 * A parsed body, or why it is refused. `message` completes a sentence whose subject the caller
 * names: "the body " + message, "payload run.json " + message.
 */
export type StrictJson =
  | { ok: true; value: unknown }
  | { ok: false; problem: 'utf8' | 'duplicate-key'; message: string }
  /** `at` and `reason` (when found) let a CLI write `file:line:col: ... reason`. */
  | { ok: false; problem: 'syntax'; message: string; at?: { line: number; col: number }; reason: string };

const where = (path: FieldPath) => (path.length === 0 ? 'at the top level' : `at ${pathText(path)}`);

/** The offset of the first byte that is not UTF-8 (bytes are assumed to hold one). */
function firstInvalidByte(bytes: Buffer, lossy: string): { byteOffset: number; charOffset: number } {
  // A lossy decode turns each invalid sequence into U+FFFD; a U+FFFD written as EF BF BD is genuine.
  let byteOffset = 0;
  let from = 0;
  for (let at = lossy.indexOf('\uFFFD'); at !== -1; at = lossy.indexOf('\uFFFD', at + 1)) {
    byteOffset += Buffer.byteLength(lossy.slice(from, at));
    if (!(bytes[byteOffset] === 0xef && bytes[byteOffset + 1] === 0xbf && bytes[byteOffset + 2] === 0xbd))
      return { byteOffset, charOffset: at };
    byteOffset += 3;
    from = at + 1;
  }
  return { byteOffset: bytes.length, charOffset: lossy.length };
}

function invalidUtf8(bytes: Buffer): StrictJson {
  const lossy = bytes.toString('utf8');
  const { byteOffset, charOffset } = firstInvalidByte(bytes, lossy);
  const byte = bytes[byteOffset]?.toString(16).toUpperCase().padStart(2, '0');
  const path = pathAt(lossy, charOffset);
  return {
    ok: false,
    problem: 'utf8',
    message: `is not valid UTF-8: byte 0x${byte ?? '??'} at offset ${byteOffset}, ${where(path)}; send the payload as UTF-8`,
  };
}

/** Where and why, on one line: V8's message can quote the text with its raw line breaks. */
function syntaxProblem(text: string, err: Error): StrictJson {
  const found = jsonSyntaxError(text);
  if (found) {
    const { line, col, reason } = found;
    return {
      ok: false,
      problem: 'syntax',
      message: `is not valid JSON: ${reason} at line ${line}, column ${col}`,
      at: { line, col },
      reason,
    };
  }
  const reason = err.message.replace(/\r?\n/g, '\\n');
  return { ok: false, problem: 'syntax', message: `is not valid JSON: ${reason}`, reason };
}

/**
 * JSON.parse, refusing what it would silently guess: bytes that are not UTF-8 (it would decode
 * them lossily) and an object that names a key twice (it would keep the last). Steadybit sends
 * neither, so both are refused with the JSON path, and one parser's reading never differs from
 * another's. The duplicate scan runs only when a cheap count says a key may repeat
 * (docs/decisions/strict-json-parsing.md has the measurements).
 */
export function parseStrictJson(bytes: Buffer): StrictJson {
  if (!isUtf8(bytes)) return invalidUtf8(bytes);
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return syntaxProblem(text, err as Error);
  }
  if (mayHaveDuplicateKeys(text, value)) {
    const duplicate = findDuplicateKey(text);
    if (duplicate) {
      return {
        ok: false,
        problem: 'duplicate-key',
        message: `is ambiguous: the key ${pathText(duplicate.path)} is given twice (JSON parsers disagree on which one counts); give each key once`,
      };
    }
  }
  return { ok: true, value };
}

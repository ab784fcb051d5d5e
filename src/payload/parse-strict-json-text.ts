import { pathText } from '../validation/field-path';
import { findDuplicateKey, mayHaveDuplicateKeys } from './duplicate-keys';
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
 * JSON text parsed as the service parses a body once it is known to be UTF-8 (parse-strict-json.ts):
 * a key given twice is refused with its path, a syntax error says where and why. The playground page
 * parses the payload it edits with this too. `quotesInText`: the `"` of the text, when the caller
 * counted them from its bytes (mayHaveDuplicateKeys).
 */
export function parseStrictJsonText(text: string, quotesInText?: number): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return syntaxProblem(text, err as Error);
  }
  if (mayHaveDuplicateKeys(text, value, quotesInText)) {
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

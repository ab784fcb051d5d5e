import { parseIsoTime } from '../policy/time/iso-time';
import { readFileSync, statSync } from 'node:fs';
import { parseStrictJson } from '../payload/parse-strict-json';
import { BadInputError } from '../common/bad-input-error';

/** The bytes of a file, or a BadInputError that names it and says why it cannot be read. */
export function readFileBytes(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new BadInputError(`cannot read ${what} ${file}: ${why}`);
  }
}

/**
 * Parses JSON read from `file` as the service parses a body (parse-strict-json.ts): invalid UTF-8,
 * a key given twice or a syntax error is a usage error that names the file and the path (a syntax
 * error as `file:line:col: ...`, on one line).
 */
export function parseJson(bytes: Buffer, file: string, what: string): unknown {
  const parsed = parseStrictJson(bytes);
  if (parsed.ok) return parsed.value;
  if (parsed.problem === 'syntax' && parsed.at)
    throw new BadInputError(
      `${file === '-' ? 'stdin' : file}:${parsed.at.line}:${parsed.at.col}: ${what} is not valid JSON: ${parsed.reason}`,
    );
  throw new BadInputError(`${what} ${file} ${parsed.message}`);
}

/** All of stdin; refuses an interactive terminal rather than waiting for input forever. */
export async function readStdin(what: string): Promise<Buffer> {
  if (process.stdin.isTTY) throw new BadInputError(`no ${what}: give a file, or pipe it on stdin`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/** The policy directory a command works on: the argument, else POLICY_DIR, else ./policies. */
export function policyDirArg(dir: string | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = dir ?? (env.POLICY_DIR || './policies');
  let isDir = false;
  try {
    isDir = statSync(chosen).isDirectory();
  } catch (err) {
    const why =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(err as Error).message}`;
    throw new BadInputError(
      `policy directory ${chosen} ${why}${dir === undefined ? ' (give a directory, or set POLICY_DIR)' : ''}`,
    );
  }
  if (!isDir)
    throw new BadInputError(`${chosen} is not a directory: give the directory that holds the policy YAML files`);
  return chosen;
}

/** `--now 2026-03-02T10:00:00Z` -> a Date; anything else is a usage error. */
export function parseNow(value: string | undefined, fallback: () => Date): Date {
  if (value === undefined) return fallback();
  const date = parseIsoTime(value);
  if (date === undefined) {
    throw new BadInputError(`--now must be an ISO 8601 time such as 2026-03-02T10:00:00Z, got "${value}"`);
  }
  return date;
}

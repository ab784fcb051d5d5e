import { open, readFile, truncate } from 'node:fs/promises';
import { ConfigError } from '../common/env-values';
import { StateUnavailableError, type ExceptionUse, type StateStore } from './state-store';

/**
 * One line of EXCEPTION_USES_FILE: one use taken, as JSON. A count is never dropped (ExceptionUse),
 * so a line has no expiry; a `keepUntil` that earlier lines carry is ignored.
 */
interface UseLine {
  exception: string;
  maxUses: number;
  /** When the use was taken, ISO: for a person reading the file. */
  at: string;
}

const isUseLine = (v: unknown): v is UseLine => {
  const l = v as Partial<UseLine> | null;
  return (
    typeof l === 'object' &&
    l !== null &&
    typeof l.exception === 'string' &&
    l.exception !== '' &&
    Number.isInteger(l.maxUses) &&
    typeof l.at === 'string' &&
    !Number.isNaN(Date.parse(l.at))
  );
};

/**
 * The uses the file holds. A last line without its newline was cut by a crash before its use was
 * answered: left out, and `keptBytes` says where the complete lines end.
 */
async function readUses(path: string): Promise<{ uses: ExceptionUse[]; cut?: { line: string; keptBytes: number } }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { uses: [] };
    throw new ConfigError(`EXCEPTION_USES_FILE ${path} cannot be read: ${(err as Error).message}`);
  }
  const lines = text.split('\n');
  const cut = lines.pop() ?? '';
  const uses = lines.map((raw, i) => {
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      line = undefined;
    }
    // A use that cannot be read might be the one that used the exception up: refuse to start.
    if (!isUseLine(line))
      throw new ConfigError(
        `EXCEPTION_USES_FILE ${path}:${i + 1} is not a use of an exception ({"exception", "maxUses", "at"}): repair or remove the line`,
      );
    return { name: line.exception, maxUses: line.maxUses };
  });
  if (cut === '') return { uses };
  return { uses, cut: { line: cut, keptBytes: Buffer.byteLength(text, 'utf8') - Buffer.byteLength(cut, 'utf8') } };
}

export const journalHealth = (path: string) =>
  `counted in EXCEPTION_USES_FILE ${path}, read again at start-up; for one process only (several replicas need Redis)`;

/**
 * The in-memory store with its exception uses kept in a file (EXCEPTION_USES_FILE): the uses the
 * file holds are taken again at start-up, and a use taken is appended and synced to disk before
 * the run is answered, so a restart keeps the count (docs/approvals.md). One process writes the
 * file; it is not shared state between replicas.
 */
export async function journaledExceptionUses(
  store: StateStore,
  path: string,
  now: Date,
  warn: (message: string, fields: Record<string, unknown>) => void = () => undefined,
): Promise<StateStore> {
  const { uses, cut } = await readUses(path);
  for (const use of uses) await store.takeExceptionUses([use], now);
  if (cut) {
    // Cut off, not ended with a newline: that would make it a complete line that cannot be read,
    // and the next start would refuse.
    await truncate(path, cut.keptBytes).catch((err: Error) => {
      throw new ConfigError(`EXCEPTION_USES_FILE ${path} cannot be truncated after its cut last line: ${err.message}`);
    });
    warn(
      `EXCEPTION_USES_FILE ${path}: its last line was cut (a crash before that run was answered), so it is removed`,
      {
        removed: cut.line,
      },
    );
  }
  const file = await open(path, 'a').catch((err: Error) => {
    throw new ConfigError(`EXCEPTION_USES_FILE ${path} cannot be opened for writing: ${err.message}`);
  });
  // One append at a time, each synced before its run is answered.
  let last: Promise<void> = Promise.resolve();
  const append = (text: string) => {
    const done = last.then(async () => {
      await file.appendFile(text);
      await file.datasync();
    });
    last = done.catch(() => undefined);
    return done;
  };
  return {
    kind: store.kind,
    apply: (event, at) => store.apply(event, at),
    read: (query, at) => store.read(query, at),
    async takeExceptionUses(taken, at) {
      const outcome = await store.takeExceptionUses(taken, at);
      if (!outcome.taken) return outcome;
      const lines = taken.map((u) =>
        JSON.stringify({
          exception: u.name,
          maxUses: u.maxUses,
          at: at.toISOString(),
        }),
      );
      try {
        await append(`${lines.join('\n')}\n`);
      } catch (err) {
        // The count in memory stays taken: one use too many is counted, never one too few.
        throw new StateUnavailableError(
          `the use could not be written to EXCEPTION_USES_FILE ${path}: ${(err as Error).message}`,
        );
      }
      return outcome;
    },
    health: () => ({ ...store.health(), exceptionUses: journalHealth(path) }),
    async close() {
      await last;
      await file.close();
      await store.close();
    },
  };
}

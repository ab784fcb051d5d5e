import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { archiveLines } from '../replay/archive-lines';
import { archiveSources } from '../replay/archive-sources';
import { BadInputError } from '../common/bad-input-error';
import { runScopeOf, type DeniedRun } from './denied-run';

type Loose = Record<string, unknown>;
const object = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});

/** The run of decision `id` in a decision archive (a file or a directory, docs/replay.md). */
export async function deniedRunFromArchive(path: string, id: string): Promise<DeniedRun> {
  const damaged: string[] = [];
  for await (const line of archiveLines(archiveSources(path))) {
    if (line.kind === 'damaged') damaged.push(`${line.file}: ${line.message}`);
    if (line.kind !== 'record' || line.record.id !== id) continue;
    const { record } = line;
    return {
      origin: `archive ${line.where}`,
      decisionId: record.id,
      at: record.at,
      revision: record.revision,
      message: String(object(record.answer.body).message ?? ''),
      allowed: record.answer.status >= 200 && record.answer.status < 300,
      ...runScopeOf(object(record.payload).execution),
      denied: record.results.filter((r) => r.result === 'deny').map((r) => r.policy),
    };
  }
  // A damaged file may have held it: say so rather than only that it is not there.
  const unread = damaged.length > 0 ? `; it may be in what could not be read of ${damaged.join('; ')}` : '';
  throw new BadInputError(
    `decision ${id} is not in the archive ${path} (is DECISION_ARCHIVE on, and the decision id the one in the denial message?)${unread}`,
  );
}

/** The run of decision `id` in an audit log (AUDIT_LOG, docs/audit-log.md): it holds no experiment version or starter. */
export async function deniedRunFromAuditLog(file: string, id: string): Promise<DeniedRun> {
  const stream = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
  try {
    await opened;
  } catch (err) {
    throw new BadInputError(`cannot read audit log ${file}: ${(err as Error).message}`);
  }
  let n = 0;
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    n++;
    if (!raw.includes(id)) continue;
    let line: Loose;
    try {
      line = object(JSON.parse(raw));
    } catch {
      continue;
    }
    if (line.log !== 'audit' || line.decisionId !== id) continue;
    const policies = Array.isArray(line.policies) ? line.policies.map(object) : [];
    return {
      origin: `audit log ${file}:${n}`,
      decisionId: id,
      at: String(line.time ?? ''),
      revision: typeof line.revision === 'string' ? line.revision : undefined,
      message: String(line.message ?? ''),
      allowed: line.decision === 'allow',
      ...runScopeOf({
        experimentKey: line.experimentKey,
        environment: line.environment,
        overrides: { environment: line.environmentOverride },
      }),
      denied: policies.filter((p) => p.result === 'deny').map((p) => String(p.policy)),
    };
  }
  throw new BadInputError(
    `decision ${id} is not in the audit log ${file} (AUDIT_LOG_LEVEL must be info or warn to write denials)`,
  );
}

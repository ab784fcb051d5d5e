import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { exceptionUsage, readDecision, type DecisionsRead, type WaiverSighting } from '../../approvals/exception-usage';
import { formatUsage, USAGE_FORMATS, type UsageFormat } from '../../approvals/format-exception-usage';
import { formatProblem } from '../../policy/compile/load-error';
import { loadPolicyDir } from '../../policy/loading/load-policy-dir';
import { archiveLines } from '../../replay/archive-lines';
import { openArchive } from '../open-archive';
import { parseNow, policyDirArg } from '../read-input';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export interface ExceptionsCommandOptions {
  archive?: string;
  auditLog?: string;
  dir?: string;
  unusedDays: string;
  format: string;
  now?: string;
}

type Loose = Record<string, unknown>;
const object = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});

/** What the report gathers while reading: every decision's time, the ones naming an exception, ids seen (archive and audit log may hold the same decision). */
interface Reading {
  read: DecisionsRead;
  sightings: WaiverSighting[];
  ids: Set<string>;
  problems: number;
}

function see(reading: Reading, id: string, sighting: WaiverSighting): void {
  if (id !== '' && reading.ids.has(id)) return;
  if (id !== '') reading.ids.add(id);
  readDecision(reading.read, sighting.at);
  if (sighting.exceptions.length > 0) reading.sightings.push(sighting);
}

async function readArchive(path: string, env: NodeJS.ProcessEnv, reading: Reading): Promise<void> {
  const archive = await openArchive(path, env, undefined);
  try {
    for await (const line of archiveLines(archive.streams)) {
      if (line.kind !== 'record') {
        reading.problems++;
        continue;
      }
      const { record } = line;
      see(reading, record.id, {
        at: record.at,
        allowed: record.answer.status >= 200 && record.answer.status < 300,
        exceptions: record.results.flatMap((r) => (r.exception ? [r.exception] : [])),
      });
    }
  } finally {
    await archive.remove();
  }
}

async function readAuditLog(file: string, reading: Reading): Promise<void> {
  const stream = createReadStream(file);
  try {
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
  } catch (err) {
    throw new BadInputError(`cannot read audit log ${file}: ${(err as Error).message}`);
  }
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (!raw.includes('"audit"')) continue;
    let line: Loose;
    try {
      line = object(JSON.parse(raw));
    } catch {
      continue; // not a JSON line: operational output mixed into the file
    }
    if (line.log !== 'audit' || typeof line.time !== 'string' || line.decision === 'stopped') continue;
    const policies = Array.isArray(line.policies) ? line.policies.map(object) : [];
    see(reading, typeof line.decisionId === 'string' ? line.decisionId : '', {
      at: line.time,
      allowed: line.decision === 'allow',
      exceptions: policies.flatMap((p) => (typeof p.exception === 'string' ? [p.exception] : [])),
    });
  }
}

function daysOf(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1)
    throw new BadInputError(`--unused-days ${text} is not a whole number of days, at least 1`);
  return Number(text);
}

/**
 * `preflight-gate exceptions --archive <a>`: each exception of the policy set, how often and when
 * last it waived an allowed run in the decision archive (and/or audit log), whether it has expired,
 * and which ones nobody used in --unused-days days: "still needed?" (docs/approvals.md).
 */
export async function exceptionsCommand(
  opts: ExceptionsCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  warn: (s: string) => void,
): Promise<number> {
  if (opts.archive === undefined && opts.auditLog === undefined)
    throw new BadInputError(
      'give --archive (DECISION_ARCHIVE: a file, a directory or s3://...) and/or --audit-log <file>',
    );
  if (!(USAGE_FORMATS as readonly string[]).includes(opts.format))
    throw new BadInputError(`--format ${opts.format}: use ${USAGE_FORMATS.join(', ')}`);
  const days = daysOf(opts.unusedDays);
  const now = parseNow(opts.now, () => new Date());
  const dir = policyDirArg(opts.dir, env);
  const loaded = loadPolicyDir(dir, now);
  if (!loaded.ok) {
    const errors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new BadInputError(`the policy set in ${dir} is invalid:\n${errors.join('\n')}`);
  }
  const reading: Reading = { read: { count: 0 }, sightings: [], ids: new Set(), problems: 0 };
  if (opts.archive !== undefined) await readArchive(opts.archive, env, reading);
  if (opts.auditLog !== undefined) await readAuditLog(opts.auditLog, reading);
  if (reading.problems > 0)
    warn(`${reading.problems} archive line(s) could not be read and were left out (run replay to see them)\n`);
  const report = exceptionUsage(loaded.bundle.exceptions, reading.sightings, reading.read, now, days);
  write(formatUsage(report, opts.format as UsageFormat));
  return EXIT.ok;
}

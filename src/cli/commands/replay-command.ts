import { parseDuration } from '../../syntax/duration';
import { formatProblem } from '../../policy/compile/load-error';
import { loadPolicyDir } from '../../policy/loading/load-policy-dir';
import { formatMarkdown } from '../../replay/format-markdown';
import { formatText, totalChanged } from '../../replay/format-text';
import { replayArchive } from '../../replay/replay-archive';
import { nothingReplayed } from '../../replay/replay-gaps';
import type { ReplayReport } from '../../replay/replay-report';
import { RUN_URL_PLACEHOLDERS } from '../../replay/run-label';
import type { ArchiveStream } from '../../replay/archive-sources';
import { openArchive } from '../open-archive';
import { replayWorkers } from '../../replay/replay-workers-option';
import { parseNow, policyDirArg } from '../read-input';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export const REPLAY_FORMATS = ['text', 'json', 'markdown'] as const;
export const FAIL_ON = ['newly-allowed', 'any-change'] as const;

export interface ReplayCommandOptions {
  archive: string;
  dir?: string;
  since?: string;
  until?: string;
  format: (typeof REPLAY_FORMATS)[number];
  failOn?: (typeof FAIL_ON)[number];
  /** With failOn: runs that cannot be replayed do not fail the check (an archive that masks keys the policies read). */
  tolerateNotReplayable?: boolean;
  maxListed: string;
  runUrl?: string;
  /** Worker threads that decide: a whole number (0, the default: in this thread), or `auto`. */
  workers?: string;
}

/** At most this many warnings on stderr; the report counts every one. */
const MAX_WARNINGS = 20;

/** A duration with a unit (`14d`, `12h`): that long before now. */
const AGO = /^\d+(?:\.\d+)?(?:w|d|h|m|s)$/;

/** An ISO time, or a duration back from `now` (`--since 14d`). */
function time(value: string | undefined, flag: string, now: () => Date): Date | undefined {
  if (value !== undefined && AGO.test(value.trim()))
    return new Date(now().getTime() - (parseDuration(value) as number));
  try {
    return value === undefined ? undefined : parseNow(value, now);
  } catch {
    throw new BadInputError(
      `${flag} must be an ISO 8601 time such as 2026-03-02T10:00:00Z or a duration back from now such as 14d, got "${value}"`,
    );
  }
}

/**
 * Why --fail-on cannot vouch for the proposed policies, whatever changed: runs that cannot be
 * replayed (a proposal adding a memory rule makes every run unreplayable; unless
 * --tolerate-not-replayable says the archive is known to hide what some rules read), unreadable
 * archive lines. (Nothing replayed at all exits 2 before: replayStreams.) Fail closed.
 */
function cannotVouch(
  report: ReplayReport,
  opts: Pick<ReplayCommandOptions, 'failOn' | 'tolerateNotReplayable'>,
): string[] {
  if (opts.failOn === undefined) return [];
  const { notReplayable, problems } = report.counts;
  const why: string[] = [];
  if (notReplayable > 0 && opts.tolerateNotReplayable !== true)
    why.push(
      `${notReplayable} archived runs could not be replayed, so the proposed policies cannot be vouched for (see "Not replayable"; --tolerate-not-replayable accepts that)`,
    );
  if (problems > 0)
    why.push(
      `${problems} archive lines could not be read (see "Unreadable lines"): is --archive the decision archive (DECISION_ARCHIVE), not the audit log?`,
    );
  return why;
}

/** Whether --fail-on finds what it names. */
function changedAsNamed(report: ReplayReport, failOn: ReplayCommandOptions['failOn']): boolean {
  if (failOn === 'newly-allowed') return report.counts.changed['newly-allowed'] > 0;
  // Same answer, other per-policy results (a new warn policy) is no change for Steadybit.
  if (failOn === 'any-change') return totalChanged(report) - report.counts.changed.results > 0;
  return false;
}

/**
 * `preflight-gate replay --archive <file|dir> --dir <proposed policies>`: decides every archived
 * run again under the proposed set and reports what would change (docs/replay.md). Exit 0, or 1
 * when --fail-on finds what it names or cannot vouch (runs not replayed, unreadable lines); 2 on a usage error, an invalid policy set,
 * an archive file that cannot be read to its end (a gzip file cut short or corrupt) or no record replayed at all (the
 * report is still written).
 */
export async function replayCommand(
  opts: ReplayCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  warn: (s: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const since = time(opts.since, '--since', now);
  const until = time(opts.until, '--until', now);
  if (since && until && since.getTime() >= until.getTime())
    throw new BadInputError(`--since (${opts.since}) must be before --until (${opts.until})`);
  const listed = Number(opts.maxListed);
  if (!Number.isInteger(listed) || listed < 0)
    throw new BadInputError(`--max-listed must be a whole number, got "${opts.maxListed}"`);
  const unknown = opts.runUrl?.match(/\{[^}]*\}/g)?.filter((p) => !RUN_URL_PLACEHOLDERS.includes(p.slice(1, -1)));
  if (unknown && unknown.length > 0)
    throw new BadInputError(
      `--run-url: unknown placeholder ${unknown[0]}; use ${RUN_URL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
    );
  const dir = policyDirArg(opts.dir, env);
  // Checked before the archive is fetched (an s3:// one is downloaded): a usage error costs nothing.
  replayWorkers(opts.workers ?? '0', []);
  const archive = await openArchive(opts.archive, env, since);
  try {
    return await replayStreams(archive.streams, dir, opts, { write, warn, since, until, listed });
  } finally {
    await archive.remove();
  }
}

interface ReplayIo {
  write: (s: string) => void;
  warn: (s: string) => void;
  since?: Date;
  until?: Date;
  listed: number;
}

async function replayStreams(
  streams: ArchiveStream[],
  dir: string,
  opts: ReplayCommandOptions,
  io: ReplayIo,
): Promise<number> {
  const { write, warn, since, until, listed } = io;
  const loaded = loadPolicyDir(dir);
  if (!loaded.ok) {
    const errors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new BadInputError(
      `the policy set in ${dir} is invalid, so nothing can be replayed (the service would not start):\n${errors.join('\n')}`,
    );
  }
  let warnings = 0;
  const report = await replayArchive({
    streams,
    archive: opts.archive,
    policyDir: dir,
    bundle: loaded.bundle,
    since,
    until,
    listed,
    workers: replayWorkers(opts.workers ?? '0', streams),
    warn: (where, message) => {
      if (++warnings <= MAX_WARNINGS) warn(`preflight-gate: warning: ${where}: ${message}\n`);
    },
  });
  if (warnings > MAX_WARNINGS)
    warn(`preflight-gate: warning: ${warnings - MAX_WARNINGS} more warnings (the report counts them all)\n`);
  if (opts.format === 'json') write(`${JSON.stringify(report, null, 2)}\n`);
  else if (opts.format === 'markdown') write(formatMarkdown(report, { runUrl: opts.runUrl }));
  else write(formatText(report));
  // A file that cannot be read to its end makes the replay incomplete whatever --fail-on says:
  // exit 2, as for an archive that is not there (fail closed), after the report of what was read.
  for (const d of report.damagedFiles)
    warn(`preflight-gate: archive file ${d.file} is damaged: ${d.message}; the replay is incomplete\n`);
  // Nothing replayed (the audit log by mistake, an empty file, every run unreplayable or out of
  // range) checked nothing: exit 2 whatever --fail-on says, as for an empty archive directory.
  if (report.counts.replayed === 0) warn(`preflight-gate: ${nothingReplayed(report)}\n`);
  if (report.damagedFiles.length > 0 || report.counts.replayed === 0) return EXIT.usage;
  const why = cannotVouch(report, opts);
  for (const reason of why) warn(`preflight-gate: --fail-on: ${reason}\n`);
  return why.length > 0 || changedAsNamed(report, opts.failOn) ? EXIT.failed : EXIT.ok;
}

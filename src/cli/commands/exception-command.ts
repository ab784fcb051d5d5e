import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { deniedRunFromArchive, deniedRunFromAuditLog } from '../../approvals/find-denied-run';
import { runScopeOf, type DeniedRun } from '../../approvals/denied-run';
import { exceptionYaml, mintExceptions, MintRefused, type MintRequest } from '../../approvals/mint-exceptions';
import { describeFieldErrors, validatePreflightPayload } from '../../payload/validate-payload';
import type { PolicyBundle } from '../../policy/core/compiled';
import { decide } from '../../policy/engine/decide';
import { givenFacts } from '../../policy/facts/quiet-facts';
import { parseDuration } from '../../syntax/duration';
import { formatProblem } from '../../policy/compile/load-error';
import { loadBundle } from '../../policy/loading/load-bundle';
import { loadPolicyDir } from '../../policy/loading/load-policy-dir';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { parseJson, parseNow, policyDirArg, readFileBytes } from '../read-input';
import { servedBundle } from '../../policy/runtime/served-bundle';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export interface ExceptionCommandOptions {
  fromDecision?: string;
  archive?: string;
  auditLog?: string;
  payload?: string;
  dir?: string;
  expiresIn: string;
  maxUses?: string;
  reason: string;
  requestedBy?: string;
  approvedBy?: string;
  anyVersion?: boolean;
  out?: string;
  now?: string;
}

/** Exactly one place the run is read from. */
function sourceOf(opts: ExceptionCommandOptions): 'archive' | 'auditLog' | 'payload' {
  const given = (['archive', 'auditLog', 'payload'] as const).filter((k) => opts[k] !== undefined);
  if (given.length !== 1)
    throw new BadInputError('give exactly one of --archive, --audit-log (with --from-decision) or --payload');
  if (given[0] !== 'payload' && opts.fromDecision === undefined)
    throw new BadInputError(
      `--${given[0] === 'archive' ? 'archive' : 'audit-log'} needs --from-decision <decision id> (the id in the denial message)`,
    );
  return given[0];
}

/** A run not yet sent: decided now with the set, as a freshly started service would (no state events). */
function deniedRunFromPayload(file: string, bundle: PolicyBundle, now: Date, requestedBy?: string): DeniedRun {
  const checked = validatePreflightPayload(parseJson(readFileBytes(file, 'payload'), file, 'payload'));
  if (!checked.ok)
    throw new BadInputError(`${file}: invalid preflight payload: ${describeFieldErrors(checked.errors)}`);
  // The decision id below is made here and was never shown to anyone: name the file, not it.
  if (requestedBy === undefined && runScopeOf(checked.payload.execution).createdBy === undefined)
    throw new BadInputError(
      `${file} does not say who starts the run (no execution.createdBy with a username or email): give --requested-by <username or email>`,
    );
  const decisionId = randomUUID();
  const decision = decide(bundle, checked.payload, givenFacts(bundle.needs, {}), now, { decisionId });
  return {
    origin: `payload ${file}, decided by the exception command`,
    decisionId,
    at: decision.evaluatedAt,
    revision: decision.revision,
    message: decision.message,
    allowed: decision.allowed,
    ...runScopeOf(checked.payload.execution),
    denied: decision.results.filter((r) => r.result === 'deny').map((r) => r.policy),
  };
}

function requestOf(opts: ExceptionCommandOptions): MintRequest {
  const maxUses = opts.maxUses === undefined ? undefined : /^\d+$/.test(opts.maxUses) ? Number(opts.maxUses) : NaN;
  return {
    expiresInMs: parseDuration(opts.expiresIn) ?? NaN,
    expiresIn: opts.expiresIn,
    maxUses,
    reason: opts.reason,
    requestedBy: opts.requestedBy,
    approvedBy: opts.approvedBy,
    anyVersion: opts.anyVersion,
  };
}

/** The minted YAML must load with the set it is meant for: a clash (the same exception minted twice) is refused here. */
function checkLoads(dir: string, yaml: string, now: Date): void {
  const sources = [...readPolicyDir(dir), { file: '(minted exception)', text: yaml }];
  const loaded = loadBundle(sources, now);
  if (!loaded.ok) {
    const errors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new BadInputError(`the minted exception would not load with the policy set in ${dir}:\n${errors.join('\n')}`);
  }
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Writes the file whole or not at all; an existing file is never overwritten. Its directory is made
 * when missing (`--out policies/exceptions/x.yaml` in a set that has no exceptions yet); a directory
 * that cannot be made or written to is bad input, named with why (exit 2), not an internal error.
 */
function writeOut(file: string, text: string): void {
  if (existsSync(file))
    throw new BadInputError(`--out ${file} exists; choose a new file (an exception is reviewed on its own)`);
  const dir = dirname(file);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new BadInputError(`--out ${file}: its directory ${dir} cannot be made (${why(err)})`);
  }
  const temp = join(dir, `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
  } catch (err) {
    throw new BadInputError(`--out ${file} cannot be written in ${dir} (${why(err)})`);
  }
  try {
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new BadInputError(`--out ${file} cannot be written in ${dir} (${why(err)})`);
  }
}

/**
 * `preflight-gate exception --from-decision <id> --archive <a> --expires-in 2h --reason "..."`:
 * an Exception for each policy that denied the run, scoped to its experiment key, environments and
 * version, printed as YAML (or written to --out) for a pull request (docs/approvals.md).
 */
export async function exceptionCommand(
  opts: ExceptionCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): Promise<number> {
  const source = sourceOf(opts);
  const dir = policyDirArg(opts.dir, env);
  const now = parseNow(opts.now, () => new Date());
  const loaded = loadPolicyDir(dir, now);
  if (!loaded.ok) {
    const errors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new BadInputError(
      `the policy set in ${dir} is invalid, so no exception can be checked against it:\n${errors.join('\n')}`,
    );
  }
  const bundle = servedBundle(loaded.bundle, env);
  const id = opts.fromDecision ?? '';
  const run =
    source === 'archive'
      ? await deniedRunFromArchive(opts.archive as string, id)
      : source === 'auditLog'
        ? await deniedRunFromAuditLog(opts.auditLog as string, id)
        : deniedRunFromPayload(opts.payload as string, bundle, now, opts.requestedBy);
  const request = requestOf(opts);
  let yaml: string;
  try {
    yaml = exceptionYaml(run, mintExceptions(run, request, bundle, now), request);
  } catch (err) {
    if (err instanceof MintRefused) throw new BadInputError(err.message);
    throw err;
  }
  checkLoads(dir, yaml, now);
  if (opts.out === undefined) write(yaml);
  else writeOut(opts.out, yaml);
  return EXIT.ok;
}

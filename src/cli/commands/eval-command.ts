import { doorFacts } from '../../policy/facts/facts';
import { randomUUID } from 'node:crypto';
import { describeFieldErrors, validatePreflightPayload } from '../../payload/validate-payload';
import { decide } from '../../policy/engine/decide';
import { givenFacts } from '../../policy/facts/quiet-facts';
import { describeFactErrors, readEnvironmentFacts, readStateFacts, readTeamFacts } from '../../policy/facts/read-facts';
import { formatProblem } from '../../policy/compile/load-error';
import { loadPolicyDir } from '../../policy/loading/load-policy-dir';
import { parseJson, parseNow, policyDirArg, readFileBytes, readStdin } from '../read-input';
import { servedBundle } from '../../policy/runtime/served-bundle';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';
import { decisionText } from './explain-text';
import { evalShareLink } from './eval-share-link';
import { signalFactsLines } from '../../policy/signals/signal-facts-text';
import { validateSignalFacts } from '../../policy/facts/validate-signal-facts';
import { guardView } from '../../guard/guard-view';
import { judgeRunningRun } from '../../guard/judge-running-run';
import { judgementJson, judgementText } from '../../guard/judgement-text';
import type { PolicyBundle } from '../../policy/core/compiled';
import type { TeamFacts } from '../../policy/facts/team-facts';
import { unreadTeams } from '../unread-teams';

export interface EvalOptions {
  payload: string;
  now?: string;
  explain?: boolean;
  dir?: string;
  state?: string;
  /** Signal facts (docs/signals.md): what Alertmanager and Prometheus answered. */
  signals?: string;
  /** The Steadybit names of the payload's environments (docs/platform-api.md), as the service gets them from the Platform API. */
  environments?: string;
  /** The members of the Steadybit teams createdByTeams names (docs/policies.md#who-started-the-run). */
  teams?: string;
  format: 'text' | 'json';
  exitCode?: boolean;
  /** Judge the run as the guard does while it is in progress (docs/guard.md): stopped or not, by which policy. */
  whileRunning?: boolean;
  /** Print a playground link holding this input instead of deciding (docs/playground.md). */
  share?: boolean;
  /** The playground the link points to (default: `preflight-gate playground`'s URL). */
  shareBase?: string;
}

/** The state facts of `--state`, checked (docs/state.md, `schema --state`): a malformed file is a usage error naming the path. */
function readStateFile(file: string) {
  const read = readStateFacts(parseJson(readFileBytes(file, 'state file'), file, 'state file'));
  if (!read.ok)
    throw new BadInputError(
      `state file ${file} is not valid state facts (see \`preflight-gate schema --state\`): ${describeFactErrors(read.errors)}`,
    );
  return read.facts;
}

/** The signal facts of `--signals`, checked (docs/signals.md, `schema --signals`): a malformed file is a usage error naming the path. */
function readSignalsFile(file: string) {
  const read = validateSignalFacts(parseJson(readFileBytes(file, 'signals file'), file, 'signals file'));
  if (!read.ok)
    throw new BadInputError(
      `signals file ${file} is not valid signal facts (see \`preflight-gate schema --signals\`): ${describeFactErrors(read.errors)}`,
    );
  return read.facts;
}

/** The environment names of `--environments`, checked (`schema --facts`, part environments): a malformed file is a usage error naming the path. */
function readEnvironmentsFile(file: string) {
  const read = readEnvironmentFacts(parseJson(readFileBytes(file, 'environments file'), file, 'environments file'));
  if (!read.ok)
    throw new BadInputError(
      `environments file ${file} is not valid environment names ({"<environment id>": {"name": "production"}}, see \`preflight-gate schema --facts\`): ${describeFactErrors(read.errors)}`,
    );
  return read.facts;
}

/** The team members of `--teams`, checked (`schema --facts`, part teams). */
function readTeamsFile(file: string) {
  const read = readTeamFacts(parseJson(readFileBytes(file, 'teams file'), file, 'teams file'));
  if (!read.ok)
    throw new BadInputError(
      `teams file ${file} is not valid team members ({"SRE": {"members": [{"username": "...", "email": "..."}]}}, see \`preflight-gate schema --facts\`): ${describeFactErrors(read.errors)}`,
    );
  return read.facts;
}

/** A warning per team of the `--teams` file no rule reads, with the one it likely meant (stderr: the answer stays on stdout). */
function unreadTeamLines(teams: TeamFacts, needs: PolicyBundle['needs'], file: string): string[] {
  return unreadTeams(teams, needs).map(
    ({ team, meant }) =>
      `warning: ${file} lists team "${team}", whose members no policy reads (createdByTeams, approvers of exceptions to an owning team's policy)${meant ? `: did you mean "${meant}"? (the members of "${meant}" are not given, so the rules that read them cannot decide)` : ''}`,
  );
}

/**
 * `preflight-gate eval --payload run.json`: the answer the service would give to this payload
 * with the policies of `--dir` (and the built-in ones), the state facts of `--state` (else those of a
 * freshly started service) and the signal facts of `--signals` (else none: signal rules cannot
 * decide, as with their sources away). Exit 0 when evaluated; with --exit-code, exit 1 on a denial.
 */
export async function evalCommand(
  opts: EvalOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  warn: (s: string) => void = (s) => process.stderr.write(s),
): Promise<number> {
  const dir = policyDirArg(opts.dir, env);
  const now = parseNow(opts.now, () => new Date());
  const bytes = opts.payload === '-' ? await readStdin('payload') : readFileBytes(opts.payload, 'payload');
  if (opts.share) {
    write(
      `${evalShareLink({ ...opts, dir, payloadBytes: bytes, payloadName: opts.payload, now, base: opts.shareBase })}\n`,
    );
    return EXIT.ok;
  }
  const checked = validatePreflightPayload(parseJson(bytes, opts.payload, 'payload'));
  if (!checked.ok)
    throw new BadInputError(
      `${opts.payload}: invalid preflight payload (the service would answer 400): ${describeFieldErrors(checked.errors)}`,
    );
  const given = opts.state === undefined ? undefined : readStateFile(opts.state);
  const signals = opts.signals === undefined ? undefined : readSignalsFile(opts.signals);
  const environments = opts.environments === undefined ? undefined : readEnvironmentsFile(opts.environments);
  const teams = opts.teams === undefined ? undefined : readTeamsFile(opts.teams);
  const loaded = loadPolicyDir(dir, now);
  if (!loaded.ok) {
    const errors = loaded.problems.filter((p) => p.severity === 'error').map(formatProblem);
    throw new BadInputError(
      `the policy set in ${dir} is invalid, so nothing can be evaluated (the service would not start):\n${errors.join('\n')}`,
    );
  }
  const bundle = servedBundle(loaded.bundle, env);
  if (teams && opts.teams) for (const line of unreadTeamLines(teams, bundle.needs, opts.teams)) warn(`${line}\n`);
  // Without --state: the facts of a freshly started service (no events yet), as production starts.
  if (opts.whileRunning) {
    const view = guardView(bundle);
    const judged = judgeRunningRun(
      view,
      checked.payload,
      givenFacts(view.needs, { state: given, signals, environments, teams }),
      now,
      randomUUID(),
    );
    write(
      opts.format === 'json'
        ? `${JSON.stringify(judgementJson(judged, opts.explain === true), null, 2)}\n`
        : judgementText(judged),
    );
    return opts.exitCode && judged.stop ? EXIT.failed : EXIT.ok;
  }
  const facts = doorFacts(givenFacts(bundle.needs, { state: given, signals, environments, teams }));
  const decision = decide(bundle, checked.payload, facts, now, {
    decisionId: randomUUID(),
    fullScan: opts.explain === true,
  });
  if (opts.format === 'json') {
    const body = decision.allowed
      ? { message: decision.message, modifications: decision.modifications }
      : { message: decision.message };
    write(
      `${JSON.stringify({ status: decision.allowed ? 200 : 403, allowed: decision.allowed, body, ...(opts.explain ? { explanation: decision, ...(signals ? { signals } : {}) } : {}) }, null, 2)}\n`,
    );
  } else {
    write(decisionText(decision, opts.explain === true, signalFactsLines(signals)));
  }
  return opts.exitCode && !decision.allowed ? EXIT.failed : EXIT.ok;
}

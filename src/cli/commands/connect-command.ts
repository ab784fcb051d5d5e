import { readFileSync } from 'node:fs';
import { attributeIncludes } from '../../connect/attribute-includes';
import { checkGate, type GateCheck } from '../../connect/check-gate';
import { restoreWebhooks, type WebhookWrite } from '../../connect/restore-webhooks';
import { runProbe } from '../../connect/run-probe';
import { planWebhook, type WebhookPlan } from '../../connect/webhook-plan';
import { getWebhooks, upsertWebhook, type WebhookKind, type WebhookUpsert } from '../../platform/integration-endpoints';
import { createPlatformClient, type ApiFailure, type PlatformClient } from '../../platform/platform-client';
import { parsePlatformConfig } from '../../platform/platform-config';
import type { Read } from '../../platform/platform-endpoints';
import { loadPolicyDir } from '../../policy/loading/load-policy-dir';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { TRACKED_EVENTS } from '../../state/state-event';
import { formatProblems } from '../format-problems';
import { policyDirArg } from '../read-input';
import { EXIT } from '../exit-codes';
import { type Interruption, listenForInterruption } from '../interruption';
import { BadInputError, readSettings } from '../../common/bad-input-error';

export interface ConnectOptions {
  gateUrl: string;
  name: string;
  team?: string;
  secretEnv?: string;
  secretFile?: string;
  attribute?: string[];
  allAttributes?: boolean;
  events: boolean;
  dryRun?: boolean;
  /** `--no-check` sets it false: no signed sample is sent to the gate before writing. */
  check?: boolean;
  probe?: boolean;
  probeTeam?: string;
  probeEnvironment?: string;
  probeTimeout: string;
  insecureHttp?: boolean;
}

const CALL_DEADLINE_MS = 30_000;
const PREFLIGHT_EVENTS = ['experiment.execution.preflight'];

/** The gate's base address as Steadybit reaches it: https (http only for loopback or when asked), no query. */
function gateBase(raw: string, insecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadInputError(
      `--gate-url must be the address Steadybit reaches the gate at, e.g. https://preflight-gate.example.com, got "${raw}"`,
    );
  }
  if (url.search || url.hash || url.username || url.password)
    throw new BadInputError("--gate-url must be the gate's address only, without credentials, query or fragment");
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && !loopback && !insecureHttp) {
    throw new BadInputError(
      '--gate-url is http: runs and their targets would cross the network in clear text; use https, or add --insecure-http',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new BadInputError(`--gate-url must start with https://, got "${raw}"`);
  const base = url.toString().replace(/\/+$/, '');
  return base.replace(/\/preflight$/, '');
}

/** The one secret Steadybit signs with: from --secret-file, or the variable --secret-env names (WEBHOOK_SECRET). */
function signingSecret(opts: ConnectOptions, env: NodeJS.ProcessEnv): string {
  if (opts.secretEnv && opts.secretFile) throw new BadInputError('give only one of --secret-env and --secret-file');
  let raw: string | undefined;
  let from: string;
  if (opts.secretFile) {
    from = `--secret-file ${opts.secretFile}`;
    try {
      raw = readFileSync(opts.secretFile, 'utf8').trim();
    } catch (err) {
      throw new BadInputError(`cannot read ${from}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  } else {
    const name = opts.secretEnv ?? 'WEBHOOK_SECRET';
    from = `the environment variable ${name}`;
    raw = env[name];
  }
  if (raw === undefined || raw === '')
    throw new BadInputError(
      `no webhook secret in ${from}: Steadybit must sign what it sends (set WEBHOOK_SECRET, or use --secret-env / --secret-file)`,
    );
  const secrets = raw
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (secrets.length !== 1) {
    throw new BadInputError(
      `${from} holds ${secrets.length} secrets (a rotation): give connect the one Steadybit should sign with from now on, alone (docs/getting-started.md#rotate-the-webhook-secret)`,
    );
  }
  return secrets[0];
}

function platform(env: NodeJS.ProcessEnv): PlatformClient {
  const config = readSettings(() => parsePlatformConfig(env));
  if (!config)
    throw new BadInputError(
      'connect registers the webhooks through the Platform API: set STEADYBIT_URL and STEADYBIT_TOKEN (or STEADYBIT_TOKEN_FILE) to an admin access token',
    );
  return createPlatformClient(config);
}

/** Why the platform refused a call, for the message (an admin token is needed for the integrations). */
function refusal(res: { failure: ApiFailure }, what: string, client: PlatformClient): string {
  const admin =
    res.failure.status === 401 || res.failure.status === 403
      ? ' (the webhook integrations need an admin access token, not a team token)'
      : '';
  return `cannot ${what} at ${client.url}: ${res.failure.message}${admin}`;
}

function readValue<T>(res: Read<T>, what: string, client: PlatformClient): T {
  if (res.ok) return res.value;
  throw new BadInputError(refusal(res, what, client));
}

/**
 * `preflight-gate connect [dir]`: registers (or updates, matched by name) the preflight webhook
 * and the custom webhook in Steadybit through the Platform API, with the gate's URL, the secret,
 * the scope, the events the gate reads and the target attributes the policies read. `--dry-run`
 * shows the change as a diff. Before writing, the gate is sent signed samples (check-gate.ts), so
 * a secret it does not hold stops connect with nothing changed; `--probe` then proves the wiring
 * with a real run. A failure after a write (a later write refused, the probe failed) puts every
 * webhook back as it was (restore-webhooks.ts): connect never leaves Steadybit refusing runs
 * through webhooks it just changed. Exit 0 done, 1 the check or probe failed or the policy set is
 * invalid, 2 usage or the platform refused.
 */
export async function connectCommand(
  dirArg: string | undefined,
  opts: ConnectOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): Promise<number> {
  const dir = policyDirArg(dirArg, env);
  const base = gateBase(opts.gateUrl, opts.insecureHttp === true);
  const secret = signingSecret(opts, env);
  const timeoutSeconds = Number(opts.probeTimeout);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 5 || timeoutSeconds > 600)
    throw new BadInputError(`--probe-timeout must be whole seconds from 5 to 600, got "${opts.probeTimeout}"`);
  const probeTeam = opts.probeTeam ?? opts.team;
  if (opts.probe && !probeTeam)
    throw new BadInputError('--probe creates an experiment, which belongs to a team: give --probe-team (or --team)');
  const loaded = loadPolicyDir(dir);
  if (!loaded.ok) {
    write(
      formatProblems(loaded.problems, 'text', {
        headline: `${dir}: the policy set is invalid (see preflight-gate validate); nothing was changed in Steadybit`,
        dir,
      }),
    );
    return EXIT.failed;
  }
  const includes = attributeIncludes(readPolicyDir(dir), {
    extra: opts.attribute ?? [],
    all: opts.allAttributes === true,
  });
  if (!includes.ok) {
    write(
      formatProblems(includes.problems, 'text', {
        headline: `${dir}: the attributes the policies read cannot all be known; nothing was changed in Steadybit`,
        dir,
      }),
    );
    return EXIT.failed;
  }
  const scope = opts.team ? { scope: 'TEAM' as const, team: opts.team } : { scope: 'GLOBAL' as const };
  const wanted: Array<[WebhookKind, WebhookUpsert]> = [
    [
      'preflight',
      {
        name: opts.name,
        url: `${base}/preflight`,
        ...scope,
        secret,
        events: PREFLIGHT_EVENTS,
        targetAttributeIncludes: includes.includes,
      },
    ],
  ];
  if (opts.events)
    wanted.push([
      'custom',
      {
        name: `${opts.name} events`,
        url: `${base}/events`,
        ...scope,
        secret,
        events: [...TRACKED_EVENTS],
        targetAttributeIncludes: [],
      },
    ]);

  const client = platform(env);
  const deadline = () => Date.now() + CALL_DEADLINE_MS;
  const plans: WebhookPlan[] = [];
  for (const [kind, body] of wanted) {
    const stored = readValue(await getWebhooks(client, kind, deadline()), `read the ${kind} webhooks`, client);
    const planned = planWebhook(kind, body, stored);
    if (!planned.ok) throw new BadInputError(planned.message);
    plans.push(planned.plan);
  }
  write(`${plans.flatMap((p) => p.diff).join('\n')}\n`);
  if (opts.dryRun) {
    write(
      `dry run: ${plans.map((p) => `${p.kind} webhook "${p.name}" would be ${p.action === 'create' ? 'created' : p.action === 'update' ? 'updated' : 'left unchanged'}`).join('; ')}; nothing was changed in Steadybit\n`,
    );
    return EXIT.ok;
  }
  const changes = plans.filter((p) => p.action !== 'unchanged');
  for (const plan of plans)
    if (plan.action === 'unchanged') write(`${plan.kind} webhook "${plan.name}" is up to date\n`);
  if (changes.length > 0 && opts.check !== false) {
    const checked = await checkGate({
      base,
      secret,
      events: opts.events,
      team: probeTeam,
      environment: opts.probeEnvironment,
    });
    if (!mayWrite(checked, opts.probe === true, write)) return EXIT.failed;
  }
  // From the first write on, Ctrl-C (or SIGTERM) puts back what was written before connect exits.
  const interruption = listenForInterruption();
  try {
    return await writeAndProbe(client, changes, opts, { probeTeam, timeoutSeconds, deadline, write, interruption });
  } finally {
    interruption.dispose();
  }
}

interface WriteContext {
  probeTeam: string | undefined;
  timeoutSeconds: number;
  deadline: () => number;
  write: (s: string) => void;
  interruption: Interruption;
}

/** Writes the changed webhooks and runs the probe; any failure or interruption after a write puts them back. */
async function writeAndProbe(
  client: PlatformClient,
  changes: readonly WebhookPlan[],
  opts: ConnectOptions,
  { probeTeam, timeoutSeconds, deadline, write, interruption }: WriteContext,
): Promise<number> {
  const interrupted = async (writes: readonly WebhookWrite[]) => {
    write(
      `connect interrupted by ${interruption.by()}: putting back what it wrote\n${await putBack(client, writes, deadline)}\n`,
    );
    return interruption.exitCode();
  };
  const writes: WebhookWrite[] = [];
  for (const plan of changes) {
    if (interruption.signal.aborted) return interrupted(writes);
    const attempt: WebhookWrite = { plan };
    writes.push(attempt);
    const stored = await upsertWebhook(client, plan.kind, plan.upsert, deadline());
    if (!stored.ok) {
      const failure = refusal(stored, `${plan.action} the ${plan.kind} webhook "${plan.name}"`, client);
      throw new BadInputError(`${failure}\n${await putBack(client, writes, deadline)}`);
    }
    attempt.written = stored.value;
    write(
      `${plan.kind} webhook "${plan.name}" ${plan.action === 'create' ? 'created' : 'updated'} (id ${stored.value.id})\n`,
    );
  }
  if (interruption.signal.aborted) return interrupted(writes);
  if (!opts.probe || !probeTeam) return EXIT.ok;
  let result: { ok: boolean; message: string };
  try {
    result = await runProbe(
      { team: probeTeam, environment: opts.probeEnvironment, timeoutMs: timeoutSeconds * 1000 },
      { client, write: (line) => write(`${line}\n`), signal: interruption.signal },
    );
  } catch (err) {
    // A bug or a broken platform answer: the webhooks are still put back, then the error is told.
    write(`probe FAILED: ${(err as Error).message}\n${await putBack(client, writes, deadline)}\n`);
    throw err;
  }
  if (interruption.signal.aborted) {
    write(`probe stopped: ${result.message}\n`);
    return interrupted(writes);
  }
  write(`probe ${result.ok ? 'passed' : 'FAILED'}: ${result.message}\n`);
  if (result.ok) return EXIT.ok;
  write(`${await putBack(client, writes, deadline)}\n`);
  return EXIT.failed;
}

/**
 * Whether connect may write after the check (check-gate.ts), the verdict written: a refusal stops
 * it; a gate this machine cannot reach stops it too, unless the probe will prove the wiring after
 * the write (and the webhooks are put back when it fails).
 */
function mayWrite(checked: GateCheck, probe: boolean, write: (s: string) => void): boolean {
  if (checked.outcome === 'passed') {
    write(`${checked.lines.join('\n')}\n`);
    return true;
  }
  if (checked.outcome === 'refused') {
    write(`check FAILED: ${checked.message}; nothing was changed in Steadybit\n`);
    return false;
  }
  if (probe) {
    write(
      `check skipped: ${checked.message}; the probe proves the wiring after the write, and connect puts the webhooks back if it fails\n`,
    );
    return true;
  }
  write(
    `check FAILED: ${checked.message}, so connect cannot tell whether the gate holds this secret; nothing was changed in Steadybit. Add --probe (Steadybit proves the wiring after the write, and connect puts the webhooks back if it fails), or --no-check if Steadybit reaches the gate where this machine cannot\n`,
  );
  return false;
}

/**
 * Puts the webhooks connect wrote back as they were (restore-webhooks.ts) and says what it did:
 * each webhook put back, each one that is not, with how to fix it by hand.
 */
async function putBack(
  client: PlatformClient,
  writes: readonly WebhookWrite[],
  deadline: () => number,
): Promise<string> {
  const report = await restoreWebhooks(client, writes, deadline);
  const lines = [
    ...report.restored.map((line) => `restored: ${line}`),
    ...report.notRestored.map((line) => `NOT restored: ${line}`),
  ];
  if (report.notRestored.length > 0)
    lines.push(
      `connect failed and could not put everything back: Steadybit may refuse runs until the webhooks above are fixed by hand`,
    );
  else if (report.restored.length > 0) lines.push('connect failed: the webhooks are back as they were before it ran');
  else lines.push('connect failed: nothing was changed in Steadybit');
  return lines.join('\n');
}

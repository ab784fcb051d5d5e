"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.connectCommand = connectCommand;
const node_fs_1 = require("node:fs");
const attribute_includes_1 = require("../../connect/attribute-includes");
const check_gate_1 = require("../../connect/check-gate");
const restore_webhooks_1 = require("../../connect/restore-webhooks");
const run_probe_1 = require("../../connect/run-probe");
const webhook_plan_1 = require("../../connect/webhook-plan");
const integration_endpoints_1 = require("../../platform/integration-endpoints");
const platform_client_1 = require("../../platform/platform-client");
const platform_config_1 = require("../../platform/platform-config");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const state_event_1 = require("../../state/state-event");
const format_problems_1 = require("../format-problems");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const interruption_1 = require("../interruption");
const bad_input_error_1 = require("../../common/bad-input-error");
const CALL_DEADLINE_MS = 30_000;
const PREFLIGHT_EVENTS = ['experiment.execution.preflight'];
/** The gate's base address as Steadybit reaches it: https (http only for loopback or when asked), no query. */
function gateBase(raw, insecureHttp) {
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw new bad_input_error_1.BadInputError(`--gate-url must be the address Steadybit reaches the gate at, e.g. https://preflight-gate.example.com, got "${raw}"`);
    }
    if (url.search || url.hash || url.username || url.password)
        throw new bad_input_error_1.BadInputError("--gate-url must be the gate's address only, without credentials, query or fragment");
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol === 'http:' && !loopback && !insecureHttp) {
        throw new bad_input_error_1.BadInputError('--gate-url is http: runs and their targets would cross the network in clear text; use https, or add --insecure-http');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new bad_input_error_1.BadInputError(`--gate-url must start with https://, got "${raw}"`);
    const base = url.toString().replace(/\/+$/, '');
    return base.replace(/\/preflight$/, '');
}
/** The one secret Steadybit signs with: from --secret-file, or the variable --secret-env names (WEBHOOK_SECRET). */
function signingSecret(opts, env) {
    if (opts.secretEnv && opts.secretFile)
        throw new bad_input_error_1.BadInputError('give only one of --secret-env and --secret-file');
    let raw;
    let from;
    if (opts.secretFile) {
        from = `--secret-file ${opts.secretFile}`;
        try {
            raw = (0, node_fs_1.readFileSync)(opts.secretFile, 'utf8').trim();
        }
        catch (err) {
            throw new bad_input_error_1.BadInputError(`cannot read ${from}: ${err.code ?? err.message}`);
        }
    }
    else {
        const name = opts.secretEnv ?? 'WEBHOOK_SECRET';
        from = `the environment variable ${name}`;
        raw = env[name];
    }
    if (raw === undefined || raw === '')
        throw new bad_input_error_1.BadInputError(`no webhook secret in ${from}: Steadybit must sign what it sends (set WEBHOOK_SECRET, or use --secret-env / --secret-file)`);
    const secrets = raw
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter((s) => s !== '');
    if (secrets.length !== 1) {
        throw new bad_input_error_1.BadInputError(`${from} holds ${secrets.length} secrets (a rotation): give connect the one Steadybit should sign with from now on, alone (docs/getting-started.md#rotate-the-webhook-secret)`);
    }
    return secrets[0];
}
function platform(env) {
    const config = (0, bad_input_error_1.readSettings)(() => (0, platform_config_1.parsePlatformConfig)(env));
    if (!config)
        throw new bad_input_error_1.BadInputError('connect registers the webhooks through the Platform API: set STEADYBIT_URL and STEADYBIT_TOKEN (or STEADYBIT_TOKEN_FILE) to an admin access token');
    return (0, platform_client_1.createPlatformClient)(config);
}
/** Why the platform refused a call, for the message (an admin token is needed for the integrations). */
function refusal(res, what, client) {
    const admin = res.failure.status === 401 || res.failure.status === 403
        ? ' (the webhook integrations need an admin access token, not a team token)'
        : '';
    return `cannot ${what} at ${client.url}: ${res.failure.message}${admin}`;
}
function readValue(res, what, client) {
    if (res.ok)
        return res.value;
    throw new bad_input_error_1.BadInputError(refusal(res, what, client));
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
async function connectCommand(dirArg, opts, env, write) {
    const dir = (0, read_input_1.policyDirArg)(dirArg, env);
    const base = gateBase(opts.gateUrl, opts.insecureHttp === true);
    const secret = signingSecret(opts, env);
    const timeoutSeconds = Number(opts.probeTimeout);
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 5 || timeoutSeconds > 600)
        throw new bad_input_error_1.BadInputError(`--probe-timeout must be whole seconds from 5 to 600, got "${opts.probeTimeout}"`);
    const probeTeam = opts.probeTeam ?? opts.team;
    if (opts.probe && !probeTeam)
        throw new bad_input_error_1.BadInputError('--probe creates an experiment, which belongs to a team: give --probe-team (or --team)');
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir);
    if (!loaded.ok) {
        write((0, format_problems_1.formatProblems)(loaded.problems, 'text', {
            headline: `${dir}: the policy set is invalid (see preflight-gate validate); nothing was changed in Steadybit`,
            dir,
        }));
        return exit_codes_1.EXIT.failed;
    }
    const includes = (0, attribute_includes_1.attributeIncludes)((0, read_policy_dir_1.readPolicyDir)(dir), {
        extra: opts.attribute ?? [],
        all: opts.allAttributes === true,
    });
    if (!includes.ok) {
        write((0, format_problems_1.formatProblems)(includes.problems, 'text', {
            headline: `${dir}: the attributes the policies read cannot all be known; nothing was changed in Steadybit`,
            dir,
        }));
        return exit_codes_1.EXIT.failed;
    }
    const scope = opts.team ? { scope: 'TEAM', team: opts.team } : { scope: 'GLOBAL' };
    const wanted = [
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
                events: [...state_event_1.TRACKED_EVENTS],
                targetAttributeIncludes: [],
            },
        ]);
    const client = platform(env);
    const deadline = () => Date.now() + CALL_DEADLINE_MS;
    const plans = [];
    for (const [kind, body] of wanted) {
        const stored = readValue(await (0, integration_endpoints_1.getWebhooks)(client, kind, deadline()), `read the ${kind} webhooks`, client);
        const planned = (0, webhook_plan_1.planWebhook)(kind, body, stored);
        if (!planned.ok)
            throw new bad_input_error_1.BadInputError(planned.message);
        plans.push(planned.plan);
    }
    write(`${plans.flatMap((p) => p.diff).join('\n')}\n`);
    if (opts.dryRun) {
        write(`dry run: ${plans.map((p) => `${p.kind} webhook "${p.name}" would be ${p.action === 'create' ? 'created' : p.action === 'update' ? 'updated' : 'left unchanged'}`).join('; ')}; nothing was changed in Steadybit\n`);
        return exit_codes_1.EXIT.ok;
    }
    const changes = plans.filter((p) => p.action !== 'unchanged');
    for (const plan of plans)
        if (plan.action === 'unchanged')
            write(`${plan.kind} webhook "${plan.name}" is up to date\n`);
    if (changes.length > 0 && opts.check !== false) {
        const checked = await (0, check_gate_1.checkGate)({
            base,
            secret,
            events: opts.events,
            team: probeTeam,
            environment: opts.probeEnvironment,
        });
        if (!mayWrite(checked, opts.probe === true, write))
            return exit_codes_1.EXIT.failed;
    }
    // From the first write on, Ctrl-C (or SIGTERM) puts back what was written before connect exits.
    const interruption = (0, interruption_1.listenForInterruption)();
    try {
        return await writeAndProbe(client, changes, opts, { probeTeam, timeoutSeconds, deadline, write, interruption });
    }
    finally {
        interruption.dispose();
    }
}
/** Writes the changed webhooks and runs the probe; any failure or interruption after a write puts them back. */
async function writeAndProbe(client, changes, opts, { probeTeam, timeoutSeconds, deadline, write, interruption }) {
    const interrupted = async (writes) => {
        write(`connect interrupted by ${interruption.by()}: putting back what it wrote\n${await putBack(client, writes, deadline)}\n`);
        return interruption.exitCode();
    };
    const writes = [];
    for (const plan of changes) {
        if (interruption.signal.aborted)
            return interrupted(writes);
        const attempt = { plan };
        writes.push(attempt);
        const stored = await (0, integration_endpoints_1.upsertWebhook)(client, plan.kind, plan.upsert, deadline());
        if (!stored.ok) {
            const failure = refusal(stored, `${plan.action} the ${plan.kind} webhook "${plan.name}"`, client);
            throw new bad_input_error_1.BadInputError(`${failure}\n${await putBack(client, writes, deadline)}`);
        }
        attempt.written = stored.value;
        write(`${plan.kind} webhook "${plan.name}" ${plan.action === 'create' ? 'created' : 'updated'} (id ${stored.value.id})\n`);
    }
    if (interruption.signal.aborted)
        return interrupted(writes);
    if (!opts.probe || !probeTeam)
        return exit_codes_1.EXIT.ok;
    let result;
    try {
        result = await (0, run_probe_1.runProbe)({ team: probeTeam, environment: opts.probeEnvironment, timeoutMs: timeoutSeconds * 1000 }, { client, write: (line) => write(`${line}\n`), signal: interruption.signal });
    }
    catch (err) {
        // A bug or a broken platform answer: the webhooks are still put back, then the error is told.
        write(`probe FAILED: ${err.message}\n${await putBack(client, writes, deadline)}\n`);
        throw err;
    }
    if (interruption.signal.aborted) {
        write(`probe stopped: ${result.message}\n`);
        return interrupted(writes);
    }
    write(`probe ${result.ok ? 'passed' : 'FAILED'}: ${result.message}\n`);
    if (result.ok)
        return exit_codes_1.EXIT.ok;
    write(`${await putBack(client, writes, deadline)}\n`);
    return exit_codes_1.EXIT.failed;
}
/**
 * Whether connect may write after the check (check-gate.ts), the verdict written: a refusal stops
 * it; a gate this machine cannot reach stops it too, unless the probe will prove the wiring after
 * the write (and the webhooks are put back when it fails).
 */
function mayWrite(checked, probe, write) {
    if (checked.outcome === 'passed') {
        write(`${checked.lines.join('\n')}\n`);
        return true;
    }
    if (checked.outcome === 'refused') {
        write(`check FAILED: ${checked.message}; nothing was changed in Steadybit\n`);
        return false;
    }
    if (probe) {
        write(`check skipped: ${checked.message}; the probe proves the wiring after the write, and connect puts the webhooks back if it fails\n`);
        return true;
    }
    write(`check FAILED: ${checked.message}, so connect cannot tell whether the gate holds this secret; nothing was changed in Steadybit. Add --probe (Steadybit proves the wiring after the write, and connect puts the webhooks back if it fails), or --no-check if Steadybit reaches the gate where this machine cannot\n`);
    return false;
}
/**
 * Puts the webhooks connect wrote back as they were (restore-webhooks.ts) and says what it did:
 * each webhook put back, each one that is not, with how to fix it by hand.
 */
async function putBack(client, writes, deadline) {
    const report = await (0, restore_webhooks_1.restoreWebhooks)(client, writes, deadline);
    const lines = [
        ...report.restored.map((line) => `restored: ${line}`),
        ...report.notRestored.map((line) => `NOT restored: ${line}`),
    ];
    if (report.notRestored.length > 0)
        lines.push(`connect failed and could not put everything back: Steadybit may refuse runs until the webhooks above are fixed by hand`);
    else if (report.restored.length > 0)
        lines.push('connect failed: the webhooks are back as they were before it ran');
    else
        lines.push('connect failed: nothing was changed in Steadybit');
    return lines.join('\n');
}
//# sourceMappingURL=connect-command.js.map
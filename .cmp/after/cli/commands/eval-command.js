"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.evalCommand = evalCommand;
const facts_1 = require("../../policy/facts/facts");
const node_crypto_1 = require("node:crypto");
const validate_payload_1 = require("../../payload/validate-payload");
const decide_1 = require("../../policy/engine/decide");
const quiet_facts_1 = require("../../policy/facts/quiet-facts");
const read_facts_1 = require("../../policy/facts/read-facts");
const load_error_1 = require("../../policy/compile/load-error");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const read_input_1 = require("../read-input");
const served_bundle_1 = require("../../policy/runtime/served-bundle");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
const explain_text_1 = require("./explain-text");
const eval_share_link_1 = require("./eval-share-link");
const signal_facts_text_1 = require("../../policy/signals/signal-facts-text");
const validate_signal_facts_1 = require("../../policy/facts/validate-signal-facts");
const guard_view_1 = require("../../guard/guard-view");
const judge_running_run_1 = require("../../guard/judge-running-run");
const judgement_text_1 = require("../../guard/judgement-text");
const unread_teams_1 = require("../unread-teams");
/** The state facts of `--state`, checked (docs/state.md, `schema --state`): a malformed file is a usage error naming the path. */
function readStateFile(file) {
    const read = (0, read_facts_1.readStateFacts)((0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(file, 'state file'), file, 'state file'));
    if (!read.ok)
        throw new bad_input_error_1.BadInputError(`state file ${file} is not valid state facts (see \`preflight-gate schema --state\`): ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** The signal facts of `--signals`, checked (docs/signals.md, `schema --signals`): a malformed file is a usage error naming the path. */
function readSignalsFile(file) {
    const read = (0, validate_signal_facts_1.validateSignalFacts)((0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(file, 'signals file'), file, 'signals file'));
    if (!read.ok)
        throw new bad_input_error_1.BadInputError(`signals file ${file} is not valid signal facts (see \`preflight-gate schema --signals\`): ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** The environment names of `--environments`, checked (`schema --facts`, part environments): a malformed file is a usage error naming the path. */
function readEnvironmentsFile(file) {
    const read = (0, read_facts_1.readEnvironmentFacts)((0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(file, 'environments file'), file, 'environments file'));
    if (!read.ok)
        throw new bad_input_error_1.BadInputError(`environments file ${file} is not valid environment names ({"<environment id>": {"name": "production"}}, see \`preflight-gate schema --facts\`): ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** The team members of `--teams`, checked (`schema --facts`, part teams). */
function readTeamsFile(file) {
    const read = (0, read_facts_1.readTeamFacts)((0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(file, 'teams file'), file, 'teams file'));
    if (!read.ok)
        throw new bad_input_error_1.BadInputError(`teams file ${file} is not valid team members ({"SRE": {"members": [{"username": "...", "email": "..."}]}}, see \`preflight-gate schema --facts\`): ${(0, read_facts_1.describeFactErrors)(read.errors)}`);
    return read.facts;
}
/** A warning per team of the `--teams` file no rule reads, with the one it likely meant (stderr: the answer stays on stdout). */
function unreadTeamLines(teams, needs, file) {
    return (0, unread_teams_1.unreadTeams)(teams, needs).map(({ team, meant }) => `warning: ${file} lists team "${team}", whose members no policy reads (createdByTeams, approvers of exceptions to an owning team's policy)${meant ? `: did you mean "${meant}"? (the members of "${meant}" are not given, so the rules that read them cannot decide)` : ''}`);
}
/**
 * `preflight-gate eval --payload run.json`: the answer the service would give to this payload
 * with the policies of `--dir` (and the built-in ones), the state facts of `--state` (else those of a
 * freshly started service) and the signal facts of `--signals` (else none: signal rules cannot
 * decide, as with their sources away). Exit 0 when evaluated; with --exit-code, exit 1 on a denial.
 */
async function evalCommand(opts, env, write, warn = (s) => process.stderr.write(s)) {
    const dir = (0, read_input_1.policyDirArg)(opts.dir, env);
    const now = (0, read_input_1.parseNow)(opts.now, () => new Date());
    const bytes = opts.payload === '-' ? await (0, read_input_1.readStdin)('payload') : (0, read_input_1.readFileBytes)(opts.payload, 'payload');
    if (opts.share) {
        write(`${(0, eval_share_link_1.evalShareLink)({ ...opts, dir, payloadBytes: bytes, payloadName: opts.payload, now, base: opts.shareBase })}\n`);
        return exit_codes_1.EXIT.ok;
    }
    const checked = (0, validate_payload_1.validatePreflightPayload)((0, read_input_1.parseJson)(bytes, opts.payload, 'payload'));
    if (!checked.ok)
        throw new bad_input_error_1.BadInputError(`${opts.payload}: invalid preflight payload (the service would answer 400): ${(0, validate_payload_1.describeFieldErrors)(checked.errors)}`);
    const given = opts.state === undefined ? undefined : readStateFile(opts.state);
    const signals = opts.signals === undefined ? undefined : readSignalsFile(opts.signals);
    const environments = opts.environments === undefined ? undefined : readEnvironmentsFile(opts.environments);
    const teams = opts.teams === undefined ? undefined : readTeamsFile(opts.teams);
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir, now);
    if (!loaded.ok) {
        const errors = loaded.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
        throw new bad_input_error_1.BadInputError(`the policy set in ${dir} is invalid, so nothing can be evaluated (the service would not start):\n${errors.join('\n')}`);
    }
    const bundle = (0, served_bundle_1.servedBundle)(loaded.bundle, env);
    if (teams && opts.teams)
        for (const line of unreadTeamLines(teams, bundle.needs, opts.teams))
            warn(`${line}\n`);
    // Without --state: the facts of a freshly started service (no events yet), as production starts.
    if (opts.whileRunning) {
        const view = (0, guard_view_1.guardView)(bundle);
        const judged = (0, judge_running_run_1.judgeRunningRun)(view, checked.payload, (0, quiet_facts_1.givenFacts)(view.needs, { state: given, signals, environments, teams }), now, (0, node_crypto_1.randomUUID)());
        write(opts.format === 'json'
            ? `${JSON.stringify((0, judgement_text_1.judgementJson)(judged, opts.explain === true), null, 2)}\n`
            : (0, judgement_text_1.judgementText)(judged));
        return opts.exitCode && judged.stop ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
    }
    const facts = (0, facts_1.doorFacts)((0, quiet_facts_1.givenFacts)(bundle.needs, { state: given, signals, environments, teams }));
    const decision = (0, decide_1.decide)(bundle, checked.payload, facts, now, {
        decisionId: (0, node_crypto_1.randomUUID)(),
        fullScan: opts.explain === true,
    });
    if (opts.format === 'json') {
        const body = decision.allowed
            ? { message: decision.message, modifications: decision.modifications }
            : { message: decision.message };
        write(`${JSON.stringify({ status: decision.allowed ? 200 : 403, allowed: decision.allowed, body, ...(opts.explain ? { explanation: decision, ...(signals ? { signals } : {}) } : {}) }, null, 2)}\n`);
    }
    else {
        write((0, explain_text_1.decisionText)(decision, opts.explain === true, (0, signal_facts_text_1.signalFactsLines)(signals)));
    }
    return opts.exitCode && !decision.allowed ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=eval-command.js.map
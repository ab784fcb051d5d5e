"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exceptionCommand = exceptionCommand;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const find_denied_run_1 = require("../../approvals/find-denied-run");
const denied_run_1 = require("../../approvals/denied-run");
const mint_exceptions_1 = require("../../approvals/mint-exceptions");
const validate_payload_1 = require("../../payload/validate-payload");
const decide_1 = require("../../policy/engine/decide");
const quiet_facts_1 = require("../../policy/facts/quiet-facts");
const duration_1 = require("../../syntax/duration");
const load_error_1 = require("../../policy/compile/load-error");
const load_bundle_1 = require("../../policy/loading/load-bundle");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const read_policy_dir_1 = require("../../policy/loading/read-policy-dir");
const read_input_1 = require("../read-input");
const served_bundle_1 = require("../../policy/runtime/served-bundle");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
/** Exactly one place the run is read from. */
function sourceOf(opts) {
    const given = ['archive', 'auditLog', 'payload'].filter((k) => opts[k] !== undefined);
    if (given.length !== 1)
        throw new bad_input_error_1.BadInputError('give exactly one of --archive, --audit-log (with --from-decision) or --payload');
    if (given[0] !== 'payload' && opts.fromDecision === undefined)
        throw new bad_input_error_1.BadInputError(`--${given[0] === 'archive' ? 'archive' : 'audit-log'} needs --from-decision <decision id> (the id in the denial message)`);
    return given[0];
}
/** A run not yet sent: decided now with the set, as a freshly started service would (no state events). */
function deniedRunFromPayload(file, bundle, now, requestedBy) {
    const checked = (0, validate_payload_1.validatePreflightPayload)((0, read_input_1.parseJson)((0, read_input_1.readFileBytes)(file, 'payload'), file, 'payload'));
    if (!checked.ok)
        throw new bad_input_error_1.BadInputError(`${file}: invalid preflight payload: ${(0, validate_payload_1.describeFieldErrors)(checked.errors)}`);
    // The decision id below is made here and was never shown to anyone: name the file, not it.
    if (requestedBy === undefined && (0, denied_run_1.runScopeOf)(checked.payload.execution).createdBy === undefined)
        throw new bad_input_error_1.BadInputError(`${file} does not say who starts the run (no execution.createdBy with a username or email): give --requested-by <username or email>`);
    const decisionId = (0, node_crypto_1.randomUUID)();
    const decision = (0, decide_1.decide)(bundle, checked.payload, (0, quiet_facts_1.givenFacts)(bundle.needs, {}), now, { decisionId });
    return {
        origin: `payload ${file}, decided by the exception command`,
        decisionId,
        at: decision.evaluatedAt,
        revision: decision.revision,
        message: decision.message,
        allowed: decision.allowed,
        ...(0, denied_run_1.runScopeOf)(checked.payload.execution),
        denied: decision.results.filter((r) => r.result === 'deny').map((r) => r.policy),
    };
}
function requestOf(opts) {
    const maxUses = opts.maxUses === undefined ? undefined : /^\d+$/.test(opts.maxUses) ? Number(opts.maxUses) : NaN;
    return {
        expiresInMs: (0, duration_1.parseDuration)(opts.expiresIn) ?? NaN,
        expiresIn: opts.expiresIn,
        maxUses,
        reason: opts.reason,
        requestedBy: opts.requestedBy,
        approvedBy: opts.approvedBy,
        anyVersion: opts.anyVersion,
    };
}
/** The minted YAML must load with the set it is meant for: a clash (the same exception minted twice) is refused here. */
function checkLoads(dir, yaml, now) {
    const sources = [...(0, read_policy_dir_1.readPolicyDir)(dir), { file: '(minted exception)', text: yaml }];
    const loaded = (0, load_bundle_1.loadBundle)(sources, now);
    if (!loaded.ok) {
        const errors = loaded.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
        throw new bad_input_error_1.BadInputError(`the minted exception would not load with the policy set in ${dir}:\n${errors.join('\n')}`);
    }
}
const why = (err) => (err instanceof Error ? err.message : String(err));
/**
 * Writes the file whole or not at all; an existing file is never overwritten. Its directory is made
 * when missing (`--out policies/exceptions/x.yaml` in a set that has no exceptions yet); a directory
 * that cannot be made or written to is bad input, named with why (exit 2), not an internal error.
 */
function writeOut(file, text) {
    if ((0, node_fs_1.existsSync)(file))
        throw new bad_input_error_1.BadInputError(`--out ${file} exists; choose a new file (an exception is reviewed on its own)`);
    const dir = (0, node_path_1.dirname)(file);
    try {
        (0, node_fs_1.mkdirSync)(dir, { recursive: true });
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`--out ${file}: its directory ${dir} cannot be made (${why(err)})`);
    }
    const temp = (0, node_path_1.join)(dir, `.${(0, node_path_1.basename)(file)}.${process.pid}.tmp`);
    try {
        (0, node_fs_1.writeFileSync)(temp, text, { flag: 'wx' });
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`--out ${file} cannot be written in ${dir} (${why(err)})`);
    }
    try {
        (0, node_fs_1.renameSync)(temp, file);
    }
    catch (err) {
        (0, node_fs_1.rmSync)(temp, { force: true });
        throw new bad_input_error_1.BadInputError(`--out ${file} cannot be written in ${dir} (${why(err)})`);
    }
}
/**
 * `preflight-gate exception --from-decision <id> --archive <a> --expires-in 2h --reason "..."`:
 * an Exception for each policy that denied the run, scoped to its experiment key, environments and
 * version, printed as YAML (or written to --out) for a pull request (docs/approvals.md).
 */
async function exceptionCommand(opts, env, write) {
    const source = sourceOf(opts);
    const dir = (0, read_input_1.policyDirArg)(opts.dir, env);
    const now = (0, read_input_1.parseNow)(opts.now, () => new Date());
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir, now);
    if (!loaded.ok) {
        const errors = loaded.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
        throw new bad_input_error_1.BadInputError(`the policy set in ${dir} is invalid, so no exception can be checked against it:\n${errors.join('\n')}`);
    }
    const bundle = (0, served_bundle_1.servedBundle)(loaded.bundle, env);
    const id = opts.fromDecision ?? '';
    const run = source === 'archive'
        ? await (0, find_denied_run_1.deniedRunFromArchive)(opts.archive, id)
        : source === 'auditLog'
            ? await (0, find_denied_run_1.deniedRunFromAuditLog)(opts.auditLog, id)
            : deniedRunFromPayload(opts.payload, bundle, now, opts.requestedBy);
    const request = requestOf(opts);
    let yaml;
    try {
        yaml = (0, mint_exceptions_1.exceptionYaml)(run, (0, mint_exceptions_1.mintExceptions)(run, request, bundle, now), request);
    }
    catch (err) {
        if (err instanceof mint_exceptions_1.MintRefused)
            throw new bad_input_error_1.BadInputError(err.message);
        throw err;
    }
    checkLoads(dir, yaml, now);
    if (opts.out === undefined)
        write(yaml);
    else
        writeOut(opts.out, yaml);
    return exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=exception-command.js.map
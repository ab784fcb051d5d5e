"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MintRefused = void 0;
exports.maximumOf = maximumOf;
exports.exceptionName = exceptionName;
exports.mintExceptions = mintExceptions;
exports.exceptionYaml = exceptionYaml;
const yaml_1 = require("yaml");
const exception_checks_1 = require("../policy/compile/exception-checks");
const duration_1 = require("../syntax/duration");
const human_duration_1 = require("../syntax/human-duration");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const starter_identity_1 = require("../policy/engine/starter-identity");
/** Why no exception can be minted: said to the person, nothing written. */
class MintRefused extends Error {
}
exports.MintRefused = MintRefused;
/** The maximum an exception of this set may run, and where it is declared. */
function maximumOf(bundle) {
    const s = bundle.exceptionSettings;
    return s
        ? { ms: s.maxDurationMs, text: `${s.maxDuration}, declared in ${s.source.file}:${s.source.line}` }
        : { ms: exception_checks_1.DEFAULT_MAX_EXCEPTION_MS, text: '7d, the default (the set declares no ExceptionSettings)' };
}
/** `no-attacks` + decision `3f2a9c1e-...` -> `no-attacks-3f2a9c1e`: at most 63 characters, a valid name. */
function exceptionName(policy, decisionId) {
    const suffix = decisionId
        .replace(/[^a-z0-9]/gi, '')
        .slice(0, 8)
        .toLowerCase() || 'run';
    const head = policy.slice(0, 63 - suffix.length - 1).replace(/-+$/, '');
    return `${head}-${suffix}`;
}
/** The policies an exception may waive: those that denied the run, the built-in ones left out (no exception waives them). */
function waivable(run, bundle) {
    const builtIn = new Set(bundle.policies.filter((p) => p.source.file === built_in_policies_1.BUILT_IN_FILE).map((p) => p.name));
    const denied = run.denied.filter((p) => !builtIn.has(p));
    if (denied.length === 0) {
        throw new MintRefused(run.denied.length > 0
            ? `decision ${run.decisionId} was denied only by ${run.denied.join(', ')}, which no exception waives (release the emergency stop in Steadybit)`
            : `decision ${run.decisionId} names no denying policy: nothing to waive`);
    }
    const known = new Set(bundle.policies.map((p) => p.name));
    const gone = denied.filter((p) => !known.has(p));
    if (gone.length > 0)
        throw new MintRefused(`policy ${gone.join(', ')} denied decision ${run.decisionId} but is not in the policy set any more: nothing to waive (check the run with preflight-gate eval)`);
    return denied;
}
/** Checks the run can be scoped exactly: an exception never waives more than the run that was denied. */
function checkRun(run) {
    if (run.allowed)
        throw new MintRefused(`decision ${run.decisionId} allowed the run: nothing to waive`);
    if (run.experimentKey === undefined)
        throw new MintRefused(`decision ${run.decisionId} has no experiment key, so no exception can be scoped to its experiment`);
    if (/[*?[\]{}!()|+@\\]/.test(run.experimentKey))
        throw new MintRefused(`experiment key "${run.experimentKey}" holds glob characters and cannot be matched exactly`);
    if (run.environments.length === 0)
        throw new MintRefused(`decision ${run.decisionId} names no environment, so no exception can be scoped to it`);
}
/** Rounded down to whole seconds (a maximum of `1d1ms` -> `1d`): a value to type that stays within it. */
const wholeSeconds = (ms) => (ms >= 1_000 ? Math.floor(ms / 1_000) * 1_000 : ms);
function checkRequest(req, bundle) {
    if (req.reason.trim() === '')
        throw new MintRefused('--reason is blank: say why the policy may be waived (the change, the approval)');
    if (!(req.expiresInMs > 0))
        throw new MintRefused(`--expires-in ${req.expiresIn} is not a duration longer than 0 (e.g. 2h, 1d)`);
    const max = maximumOf(bundle);
    if (req.expiresInMs > max.ms)
        throw new MintRefused(`--expires-in ${req.expiresIn} is longer than the maximum of ${max.text}; ask for at most ${(0, human_duration_1.humanDuration)(max.ms, 'down')} (--expires-in ${(0, duration_1.formatDuration)(wholeSeconds(max.ms))})`);
    if (req.maxUses !== undefined && !(Number.isInteger(req.maxUses) && req.maxUses >= 1))
        throw new MintRefused('--max-uses must be a whole number of runs, at least 1');
}
/** A person named on the command line, without the spaces around it (`--approved-by " joe"`); blank is refused. */
function person(flag, value) {
    if (value === undefined)
        return undefined;
    const trimmed = value.trim();
    if (trimmed === '')
        throw new MintRefused(`${flag} is blank: name one Steadybit username or email`);
    return trimmed;
}
function withPeopleTrimmed(req) {
    return {
        ...req,
        requestedBy: person('--requested-by', req.requestedBy),
        approvedBy: person('--approved-by', req.approvedBy),
    };
}
/** A set that wants a second person (ExceptionSettings.approverNotStarter): an approver, and not the run's starter. */
function checkApprover(run, req, bundle) {
    const settings = bundle.exceptionSettings;
    if (!settings?.approverNotStarter)
        return;
    const where = `ExceptionSettings.approverNotStarter, ${settings.source.file}:${settings.source.line}`;
    if (req.approvedBy === undefined)
        throw new MintRefused(`the policy set requires a second person to approve (${where}): give --approved-by <username or email>`);
    const username = run.createdBy?.username?.trim().toLowerCase() || undefined;
    const email = run.createdBy?.email?.trim().toLowerCase() || undefined;
    const same = (0, starter_identity_1.isStarter)(req.approvedBy, { username, email, all: [username, email].filter((v) => v !== undefined) });
    if (same === true)
        throw new MintRefused(`--approved-by ${req.approvedBy} started the run of decision ${run.decisionId}; the policy set requires someone else to approve (${where})`);
    // The gate would not waive a run it cannot compare (docs/policies.md#who-started-the-run): an
    // exception minted anyway would pass review and never work (review finding).
    if (same === undefined)
        throw new MintRefused(`cannot tell whether --approved-by ${req.approvedBy} started the run of decision ${run.decisionId}: ${username === undefined && email === undefined
            ? 'the decision does not say who started it (an audit line does not record it: mint from --archive or --payload)'
            : `the run names its starter by ${username === undefined ? 'email' : 'username'} only: give --approved-by as a ${username === undefined ? 'email' : 'username'}`}; the policy set requires someone else to approve (${where})`);
}
/**
 * A denying policy that the owners of the targets keep (`match.ownedBy`) is waived only with an
 * approver from the owning team: without --approved-by the exception would not load. Whether the
 * approver is a member is read from the Platform API at decision time, not here.
 */
function checkOwnerApproval(req, policies, bundle) {
    if (req.approvedBy !== undefined)
        return;
    const owned = bundle.policies.find((p) => policies.includes(p.name) && p.match.owningTeam !== undefined);
    if (owned === undefined)
        return;
    const team = owned.match.owningTeam;
    throw new MintRefused(`policy "${owned.name}" is kept by team ${team} for the targets it owns (match.ownedBy): give --approved-by <the username or email of the member of team ${team} who approved it>`);
}
/**
 * The exceptions that waive exactly the policies that denied the run, for its experiment key and
 * environments (and its version unless `anyVersion`), until now + expiresIn: one per policy (an
 * Exception waives one). Throws MintRefused when the run or the request does not allow one.
 */
function mintExceptions(run, request, bundle, now) {
    const req = withPeopleTrimmed(request);
    checkRun(run);
    checkRequest(req, bundle);
    checkApprover(run, req, bundle);
    const requestedBy = req.requestedBy ?? run.createdBy?.email ?? run.createdBy?.username;
    if (requestedBy === undefined)
        throw new MintRefused(`decision ${run.decisionId} does not say who started the run: give --requested-by`);
    const version = run.experimentVersion;
    const versions = req.anyVersion || version === undefined ? undefined : [/^\d{1,15}$/.test(version) ? Number(version) : version];
    const expires = new Date(now.getTime() + req.expiresInMs).toISOString().replace('.000Z', 'Z');
    const policies = waivable(run, bundle);
    checkOwnerApproval(req, policies, bundle);
    return policies.map((policy) => ({
        kind: 'Exception',
        name: exceptionName(policy, run.decisionId),
        policy,
        owner: requestedBy,
        requestedBy,
        ...(req.approvedBy ? { approvedBy: req.approvedBy } : {}),
        reason: req.reason.trim(),
        expires,
        ...(req.maxUses ? { maxUses: req.maxUses } : {}),
        match: {
            experimentKeys: [run.experimentKey],
            environments: run.environments,
            ...(versions ? { experimentVersions: versions } : {}),
        },
    }));
}
/** The comment above the first document: where it came from, what it waives, how it lands. */
function header(run, docs, req) {
    const version = docs[0].match.experimentVersions
        ? ` version ${docs[0].match.experimentVersions[0]}`
        : ' (every version)';
    const uses = req.maxUses ? `, for at most ${req.maxUses} run${req.maxUses === 1 ? '' : 's'}` : '';
    return [
        ` Minted by \`preflight-gate exception\` from decision ${run.decisionId} (${run.origin}),`,
        ` decided at ${run.at}${run.revision ? ` by policy revision ${run.revision}` : ''}:`,
        `   ${run.message.replace(/\s+/g, ' ')}`,
        ` Waives ${docs.map((d) => d.policy).join(', ')} for experiment ${docs[0].match.experimentKeys[0]}${version}`,
        ` in ${docs[0].match.environments.join(' / ')} until ${docs[0].expires}${uses}.`,
        ' Commit it to the policy repository through a pull request: its reviewer approves the waiver.',
    ].join('\n');
}
/** The documents as YAML, one after the other, the first with the header comment. */
function exceptionYaml(run, docs, req) {
    return docs
        .map((d, i) => {
        const doc = new yaml_1.Document(d);
        if (i === 0)
            doc.commentBefore = header(run, docs, req);
        return String(doc);
    })
        .join('---\n');
}
//# sourceMappingURL=mint-exceptions.js.map
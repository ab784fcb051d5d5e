"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EXCEPTION_FIELD_HINTS = exports.EXPIRES_SOON_MS = exports.DEFAULT_MAX_EXCEPTION_MS = void 0;
exports.exceptionProblems = exceptionProblems;
const human_duration_1 = require("../../syntax/human-duration");
const human_time_1 = require("../../syntax/human-time");
/**
 * The longest the mint command lets an exception run when the set declares no maximum. Loading
 * checks no maximum then: sets written before ExceptionSettings keep loading (docs/approvals.md).
 */
exports.DEFAULT_MAX_EXCEPTION_MS = 7 * 86_400_000;
/**
 * An exception without maxUses expiring sooner than this gets a warning: someone may still count on
 * it. One with maxUses is an approval meant to run out (a minted `--expires-in 2h --max-uses 1`):
 * no warning (docs/approvals.md#what-validate-checks).
 */
exports.EXPIRES_SOON_MS = 86_400_000;
/** What to write when an Exception lacks a field: the fix, not only the fault. */
exports.EXCEPTION_FIELD_HINTS = {
    reason: 'say why the policy may be waived (the change, the approval); `preflight-gate exception --reason` writes it',
    expires: 'an exception stops by itself: an RFC 3339 time such as "2026-06-14T18:00:00Z" (`preflight-gate exception --expires-in 4h` writes it)',
    owner: 'who answers for the waiver, e.g. an email',
    policy: 'the name of the policy it waives',
};
const at = (e, input, field, message, severity) => ({ ...input.locate(e, field), path: field, message, severity });
/** An exception without match waives every run its policy applies to: allowed, but said (review finding). */
function unscoped(e, input) {
    // An expired one waives nothing: its own warning (remove it) says enough.
    if (e.match.narrowsRun || e.match.hasStepFilter || e.expires <= input.now)
        return [];
    return [
        at(e, input, 'name', `exception "${e.name}" has no match, so it waives every run policy "${e.policy}" applies to until it expires; scope it (match: experimentKeys, environments, teams, createdBy, ...)`, 'warning'),
    ];
}
/** More than one person, or a display name, where one Steadybit username or email belongs: `a@x.com, b@y.com`. */
const NOT_ONE_IDENTITY = /[\s,;]/;
/**
 * An approvedBy naming more than one person would let a list that includes the starter pass the
 * second-person check as "someone else" (review finding): refused where the set requires a second
 * person, a warning elsewhere (sets written before the setting may hold display names).
 */
function approverNotOnePerson(e, input) {
    const approver = e.approvedBy?.trim();
    if (approver === undefined || !NOT_ONE_IDENTITY.test(approver))
        return [];
    const strict = input.settings?.approverNotStarter === true;
    return [
        at(e, input, 'approvedBy', `exception "${e.name}" has approvedBy "${approver}", which is not one Steadybit username or email (it holds a space, a comma or a semicolon); name the one person who approved it${strict ? ': ExceptionSettings.approverNotStarter compares it with the person who started the run' : ''}`, strict ? 'error' : 'warning'),
    ];
}
/** An exception in a set that wants a second person must name its approver (ExceptionSettings.approverNotStarter). */
function unapproved(e, input) {
    if (!input.settings?.approverNotStarter || e.approvedBy !== undefined)
        return [];
    return [
        at(e, input, 'name', `exception "${e.name}" has no approvedBy, but the set requires the approver not to be the person who started the run (ExceptionSettings.approverNotStarter at ${input.settings.source.file}:${input.settings.source.line}); add approvedBy: <username or email> (\`preflight-gate exception --approved-by\`)`, 'error'),
    ];
}
/** An exception to a policy an owning team keeps (match.ownedBy) must name its approver: a member of that team. */
function withoutOwnerApproval(e, input) {
    if (e.owningTeam === undefined || e.approvedBy !== undefined)
        return [];
    return [
        at(e, input, 'name', `exception "${e.name}" has no approvedBy, but policy "${e.policy}" is kept by team ${e.owningTeam} for the targets it owns (match.ownedBy): only a member of team ${e.owningTeam} may approve it; add approvedBy: <their username or email> (\`preflight-gate exception --approved-by\`)`, 'error'),
    ];
}
/** The problems of one exception in its set: a waived policy that does not exist, an expiry past the maximum, soon or gone. */
function problemsOf(e, input) {
    if (!input.declaredPolicies.has(e.policy)) {
        return [at(e, input, 'policy', `exception "${e.name}" waives policy "${e.policy}", which does not exist`, 'error')];
    }
    const left = e.expires.getTime() - input.now.getTime();
    // As written: milliseconds only when the exception gives them.
    const until = e.expires.toISOString().replace(/\.000Z$/, 'Z');
    if (left <= 0)
        return [
            at(e, input, 'expires', `exception "${e.name}" expired at ${until} and no longer applies; remove it`, 'warning'),
        ];
    const { settings } = input;
    if (settings && left > settings.maxDurationMs) {
        const latest = (0, human_time_1.humanTime)(input.now.getTime() + settings.maxDurationMs);
        const where = `${settings.source.file}:${settings.source.line}`;
        return [
            at(e, input, 'expires', `exception "${e.name}" runs until ${until} (${(0, human_duration_1.humanDuration)(left)} from now), ${(0, human_duration_1.humanDuration)(left - settings.maxDurationMs, 'down')} past the maximum of ${settings.maxDuration} the set declares (ExceptionSettings at ${where}); expire it by ${latest}`, 'error'),
        ];
    }
    if (left <= exports.EXPIRES_SOON_MS && e.maxUses === undefined) {
        return [
            at(e, input, 'expires', `exception "${e.name}" expires within a day (at ${until}, in ${(0, human_duration_1.humanDuration)(left)}); mint a new one if it is still needed`, 'warning'),
        ];
    }
    return [];
}
/** Every exception checked against its set (docs/approvals.md#what-validate-checks). */
function exceptionProblems(input) {
    return input.exceptions.flatMap((e) => [
        ...unapproved(e, input),
        ...withoutOwnerApproval(e, input),
        ...approverNotOnePerson(e, input),
        ...problemsOf(e, input),
        ...unscoped(e, input),
    ]);
}
//# sourceMappingURL=exception-checks.js.map
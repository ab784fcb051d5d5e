"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.approverNeeds = void 0;
exports.waiverBlocker = waiverBlocker;
exports.useText = useText;
const starter_identity_1 = require("./starter-identity");
/** Why the approver check keeps the exception from waiving, or undefined (ExceptionSettings.approverNotStarter). */
function approverBlocker(e, ctx) {
    if (!e.approverNotStarter)
        return undefined;
    const rule = 'the set requires a second person (ExceptionSettings.approverNotStarter)';
    if (e.approvedBy === undefined)
        return `exception "${e.name}" names no approvedBy and ${rule}, so it does not waive this policy`;
    const starter = (0, starter_identity_1.starterOf)(ctx);
    const same = (0, starter_identity_1.isStarter)(e.approvedBy, starter);
    if (same === true)
        return `exception "${e.name}" was approved by ${e.approvedBy}, who started this run, and ${rule}, so it does not waive this policy; ask someone else to approve it`;
    if (same === undefined)
        return `cannot tell whether ${e.approvedBy}, who approved exception "${e.name}", started this run (execution.createdBy ${starter.all.length === 0 ? 'is not sent' : `names only ${starter.text}`}) and ${rule}, so it does not waive this policy`;
    return undefined;
}
/**
 * Whether `person` (an exception's approvedBy: a username or an email) is one of the members,
 * ignoring case and surrounding spaces; undefined when it cannot be told: an email, and a member
 * listed without one (that member may be the approver).
 */
function isAmong(person, members) {
    const p = person.trim().toLowerCase();
    if (members.some((m) => m.username.toLowerCase() === p || m.email?.toLowerCase() === p))
        return true;
    return p.includes('@') && members.some((m) => m.email === undefined) ? undefined : false;
}
/** The members of the Steadybit teams that approve exceptions to a policy an owning team keeps (`match.ownedBy`). */
const approverNeeds = (e) => ({
    needs: e.owningTeam === undefined ? [] : [{ kind: 'team-members', team: e.owningTeam }],
});
exports.approverNeeds = approverNeeds;
/**
 * Why the owning team's consent is missing, or undefined: an exception to a policy that the owners of
 * the attacked targets keep (`match.ownedBy`) waives only when a member of that team approved it, as
 * the Platform API lists the team's members; members that cannot be read never waive (fail closed).
 */
function ownerApproverBlocker(e, ctx) {
    const team = e.owningTeam;
    if (team === undefined)
        return undefined;
    const owns = `team ${team}, which owns the targets this run reaches`;
    const ask = `ask a member of team ${team} to approve it`;
    if (e.approvedBy === undefined)
        return `exception "${e.name}" names no approvedBy, and only a member of ${owns} may approve it, so it does not waive this policy; ${ask}`;
    const read = ctx.facts.teams?.[team];
    const unknown = read === undefined
        ? `the members of Steadybit team ${team} were not read (they come from the Steadybit Platform API: set STEADYBIT_URL)`
        : 'unknown' in read
            ? read.unknown
            : undefined;
    const member = read === undefined || 'unknown' in read ? undefined : isAmong(e.approvedBy, read.members);
    if (member === true)
        return undefined;
    if (member === false)
        return `exception "${e.name}" was approved by ${e.approvedBy}, who is not a member of ${owns}, so it does not waive this policy; ${ask}`;
    const why = unknown ?? `${e.approvedBy} is an email and a member of team ${team} is listed without one`;
    return `cannot tell whether ${e.approvedBy}, who approved exception "${e.name}", is a member of ${owns}: ${why}; so it does not waive this policy`;
}
/**
 * Why an exception whose match reaches the run does not waive it now, or undefined when it does:
 * it expired, or its approver started the run (ExceptionSettings.approverNotStarter), or is not of
 * the team that owns the targets (the policy's match.ownedBy), or its maxUses
 * are used up, or its use count was not gathered or cannot be kept (unknown never waives).
 */
function waiverBlocker(e, ctx) {
    if (e.expires <= ctx.now)
        return `exception "${e.name}" expired at ${e.expires.toISOString()} and no longer waives this policy`;
    const approver = approverBlocker(e, ctx) ?? ownerApproverBlocker(e, ctx);
    if (approver !== undefined)
        return approver;
    if (e.maxUses === undefined)
        return undefined;
    const counts = ctx.facts.state?.exceptionUses;
    if (counts === undefined)
        return `cannot tell how often exception "${e.name}" was used (${ctx.facts.state?.exceptionUsesUnknown ?? 'the state store was not read'}), so it does not waive this policy`;
    const used = counts[e.name] ?? 0;
    if (used >= e.maxUses)
        return `exception "${e.name}" is used up (${used} of ${e.maxUses} run${e.maxUses === 1 ? '' : 's'} waived) and no longer waives this policy; ask for a new one`;
    return undefined;
}
/** ` (use 1 of 1)` for an exception with maxUses: what a waived run's reason adds. */
function useText(e, ctx) {
    if (e.maxUses === undefined)
        return '';
    return `, use ${(ctx.facts.state?.exceptionUses?.[e.name] ?? 0) + 1} of ${e.maxUses}`;
}
//# sourceMappingURL=waiver-blocker.js.map
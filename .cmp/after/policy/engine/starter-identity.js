"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.starterOf = starterOf;
exports.isStarter = isStarter;
const memo_1 = require("../core/memo");
const STARTER = (0, memo_1.memoKey)("the run's starter, lower-cased");
const lower = (v) => typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined;
/** The run's starter, read once per decision. */
function starterOf(ctx) {
    return ctx.memo.get(STARTER, () => {
        const by = ctx.execution.createdBy;
        const username = lower(by?.username);
        const email = lower(by?.email);
        const all = [username, email].filter((v) => v !== undefined);
        const shown = by?.email ?? by?.username;
        return { username, email, all, text: typeof shown === 'string' ? shown : undefined };
    });
}
/**
 * Whether `person` (a username or an email, as written in an exception's approvedBy or a member
 * list) is the run's starter, compared case-insensitively on username and email; undefined when
 * it cannot be told: the payload names no starter, or `person` is an email and the payload sends
 * the starter's username only (and it differs).
 */
function isStarter(person, starter) {
    const p = person.trim().toLowerCase();
    if (starter.all.length === 0)
        return undefined;
    if (starter.all.includes(p))
        return true;
    if (p.includes('@') && starter.email === undefined)
        return undefined;
    if (!p.includes('@') && starter.username === undefined)
        return undefined;
    return false;
}
//# sourceMappingURL=starter-identity.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compileException = compileException;
const shared_parts_1 = require("./shared-parts");
/** One Exception, its own checks added to `problems`; the checks across the set are exception-checks.ts. */
function compileException(doc, parsed, shared, problems) {
    const expires = new Date(doc.expires);
    if (typeof doc.expires === 'string' && problems.intact(['expires']) && Number.isNaN(expires.getTime()))
        problems.add(['expires'], `expires is not a valid time: ${doc.expires}`);
    if (typeof doc.reason === 'string' && problems.intact(['reason']) && doc.reason.trim() === '')
        problems.add(['reason'], 'reason is blank: say why the policy may be waived (the change, the approval)');
    for (const field of ['requestedBy', 'approvedBy'])
        if (typeof doc[field] === 'string' && problems.intact([field]) && doc[field].trim() === '')
            problems.add([field], `${field} is blank: name one Steadybit username or email`);
    const match = problems.part(['match'], () => (0, shared_parts_1.sharedScope)(doc.match, false, shared));
    if (problems.hasErrors || match === undefined)
        return undefined;
    return {
        name: doc.name,
        policy: doc.policy,
        owner: doc.owner,
        reason: doc.reason,
        expires,
        // Spaces around a name are not part of it: messages quote the person, not the padding.
        requestedBy: doc.requestedBy?.trim(),
        approvedBy: doc.approvedBy?.trim(),
        maxUses: doc.maxUses,
        approverNotStarter: false,
        match,
        source: { file: parsed.file, ...parsed.locate([]) },
    };
}
//# sourceMappingURL=compile-exception.js.map
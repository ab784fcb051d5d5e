"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.changedKeys = changedKeys;
exports.modificationChanges = modificationChanges;
/** The property keys whose modification differs between two answers (added, removed or another value). */
function changedKeys(before, after) {
    const text = (list, key) => JSON.stringify(list.filter((m) => m.propertyKey === key));
    const keys = new Set([...before, ...after].map((m) => m.propertyKey));
    return new Set([...keys].filter((key) => text(before, key) !== text(after, key)));
}
/**
 * The policies behind a change of modifications (a policy's result is the same, what it
 * writes is not): the policies of the proposed set that write one of the changed keys and did not
 * deny the replayed run, as `pass -> pass` (their result, unchanged). The archive does not say which
 * recorded policy wrote a key, so a key no proposed policy writes any more names no policy.
 */
function modificationChanges(bundle, replayed, keys, known) {
    const out = [];
    for (const result of replayed) {
        if (result.result === 'deny' || result.result === 'skipped' || known.some((c) => c.policy === result.policy))
            continue;
        const policy = bundle.policies.find((p) => p.name === result.policy);
        if (policy?.modifications.some((m) => keys.has(m.propertyKey)))
            out.push({ policy: result.policy, before: result.result, after: result.result });
    }
    return out;
}
//# sourceMappingURL=modification-changes.js.map
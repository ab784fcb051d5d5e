"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_MESSAGE_LENGTH = void 0;
exports.mergeModifications = mergeModifications;
exports.combine = combine;
/** Steadybit shows the message in the run view; keep it readable. */
exports.MAX_MESSAGE_LENGTH = 1000;
/** Most important first: higher priority, then name (the bundle's order, restated so it never depends on input order). */
const byImportance = (a, b) => b.priority - a.priority || a.policy.localeCompare(b.policy);
/** `prefix [p1] msg | [p2] msg | (+3 more)suffix`, never longer than MAX_MESSAGE_LENGTH. */
function listPolicies(prefix, results, suffix) {
    let out = prefix;
    let shown = 0;
    for (const r of results) {
        const part = `${shown === 0 ? '' : ' | '}[${r.policy}] ${r.message ?? r.reasons.join('; ')}`;
        const rest = results.length - shown - 1;
        const reserve = rest > 0 ? ` | (+${rest} more)`.length : 0;
        if (out.length + part.length + reserve + suffix.length > exports.MAX_MESSAGE_LENGTH) {
            const room = exports.MAX_MESSAGE_LENGTH - out.length - suffix.length - ` | (+${results.length - shown} more)`.length;
            if (shown === 0 && room > 20) {
                out += `${part.slice(0, room - 1)}…`;
                shown++;
            }
            break;
        }
        out += part;
        shown++;
    }
    if (shown < results.length)
        out += ` | (+${results.length - shown} more)`;
    return bounded(out + suffix);
}
/** Conflicts are listed in full in the decision; the message keeps room for the policies and the reference. */
const MAX_CONFLICT_NOTE = 300;
const clip = (text, max) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** The last resort: a message cut to MAX_MESSAGE_LENGTH, marked with an ellipsis. */
function bounded(message) {
    return clip(message, exports.MAX_MESSAGE_LENGTH);
}
/**
 * Identifies a value added to a list property: equal keys exactly when the values are equal as JSON.
 * A string or finite number (nearly every value) needs no JSON text; the first letter keeps the kinds apart.
 */
function addedKey(propertyKey, value) {
    if (typeof value === 'string')
        return `s${propertyKey.length}:${propertyKey}${value}`;
    if (typeof value === 'number' && Number.isFinite(value))
        return `n${propertyKey.length}:${propertyKey}${value}`;
    return `j${JSON.stringify([propertyKey, value])}`;
}
/**
 * Merges the modifications of the policies that allowed the run, in bundle order (priority,
 * then name). For a property set twice to different values, the first setter (highest priority)
 * wins and the conflict is reported. A value added to a list twice is added once.
 */
function mergeModifications(outcomes) {
    const modifications = [];
    const conflicts = [];
    const set = new Map();
    const added = new Set();
    // Only the few outcomes that modify are ordered: sorting a subset keeps its order within the whole (the sort is stable).
    const ordered = outcomes.filter((o) => o.modifications.length > 0).sort((a, b) => byImportance(a.result, b.result));
    for (const { modifications: mods } of ordered) {
        for (const { policy, type, propertyKey, value } of mods) {
            const m = { type, propertyKey, value };
            if (m.type === 'set_property_value') {
                const prior = set.get(m.propertyKey);
                if (prior) {
                    if (JSON.stringify(prior.value) !== JSON.stringify(m.value)) {
                        conflicts.push({ propertyKey: m.propertyKey, kept: prior, dropped: { policy, value: m.value } });
                    }
                    continue;
                }
                set.set(m.propertyKey, { policy, value: m.value });
            }
            else {
                const key = addedKey(m.propertyKey, m.value);
                if (added.has(key))
                    continue;
                added.add(key);
            }
            modifications.push(m);
        }
    }
    return { modifications, conflicts };
}
/** The results in order, the denials and warnings most important first, and how many policies applied: one pass. */
function tally(outcomes) {
    const results = [];
    const denies = [];
    const warns = [];
    let applied = 0;
    for (const { result } of outcomes) {
        results.push(result);
        if (result.result !== 'skipped')
            applied++;
        if (result.result === 'deny')
            denies.push(result);
        else if (result.result === 'warn')
            warns.push(result);
    }
    return { results, denies: denies.sort(byImportance), warns: warns.sort(byImportance), applied };
}
/** Every outcome, one decision: any enforcing denial denies; warnings and conflicts are said in the message. */
function combine(outcomes, meta) {
    const { results, denies, warns, applied } = tally(outcomes);
    const ref = ` (decision ${meta.id}, policy revision ${meta.revision})`;
    const outOfScope = meta.outOfScope ?? 0;
    // The fields in the same order as ever: decisions stay byte-identical.
    const base = { id: meta.id, revision: meta.revision, evaluatedAt: meta.evaluatedAt, results, outOfScope };
    const decision = (allowed, message, modifications, conflicts) => ({
        ...base,
        allowed,
        message,
        modifications,
        conflicts,
    });
    if (denies.length > 0) {
        const head = `Denied by ${denies.length} ${denies.length === 1 ? 'policy' : 'policies'}: `;
        return decision(false, listPolicies(head, denies, ref), [], []);
    }
    const { modifications, conflicts } = mergeModifications(outcomes);
    const conflictNote = clip(conflicts
        .map((c) => ` Conflict: "${c.propertyKey}" set by ${c.kept.policy} and ${c.dropped.policy}; kept ${JSON.stringify(c.kept.value)} (higher priority).`)
        .join(''), MAX_CONFLICT_NOTE);
    const total = results.length + outOfScope;
    const message = warns.length > 0
        ? listPolicies('Allowed with warnings: ', warns.map((w) => Object.assign({}, w, { message: `would deny: ${w.message ?? w.reasons.join('; ')}` })), `.${conflictNote}${ref}`)
        : bounded(`Allowed: ${applied} of ${total} ${total === 1 ? 'policy' : 'policies'} applied, none denied.${conflictNote}${ref}`);
    return decision(true, message, modifications, conflicts);
}
//# sourceMappingURL=combine.js.map
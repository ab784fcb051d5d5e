"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fingerprint = exports.WEBHOOK_LABEL = void 0;
exports.planWebhook = planWebhook;
/** How messages name each kind of webhook. */
exports.WEBHOOK_LABEL = { preflight: 'preflight webhook', custom: 'custom webhook' };
const secret_fingerprint_1 = require("../signature/secret-fingerprint");
Object.defineProperty(exports, "fingerprint", { enumerable: true, get: function () { return secret_fingerprint_1.fingerprint; } });
const sameSet = (a, b) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
function fields(stored, wanted) {
    const list = (v) => (v.length === 0 ? '(none)' : v.join(', '));
    const secretStored = stored === undefined
        ? undefined
        : stored.secret === undefined
            ? '(not shown by Steadybit)'
            : (0, secret_fingerprint_1.fingerprint)(stored.secret);
    return [
        { label: 'name', stored: stored?.name, wanted: wanted.name, same: true },
        { label: 'url', stored: stored?.url, wanted: wanted.url, same: stored?.url === wanted.url },
        { label: 'scope', stored: stored?.scope, wanted: wanted.scope, same: stored?.scope === wanted.scope },
        {
            label: 'team',
            stored: stored && (stored.team ?? '(none)'),
            wanted: wanted.team ?? '(none)',
            same: (stored?.team ?? '') === (wanted.team ?? ''),
        },
        {
            label: 'events',
            stored: stored && list(stored.events),
            wanted: list(wanted.events),
            same: !!stored && sameSet(stored.events, wanted.events),
        },
        {
            label: 'targetAttributeIncludes',
            stored: stored && list(stored.targetAttributeIncludes),
            wanted: list(wanted.targetAttributeIncludes),
            same: !!stored && sameSet(stored.targetAttributeIncludes, wanted.targetAttributeIncludes),
        },
        {
            label: 'secret',
            stored: secretStored,
            wanted: (0, secret_fingerprint_1.fingerprint)(wanted.secret ?? ''),
            same: stored?.secret !== undefined && stored.secret === wanted.secret,
        },
    ];
}
function diffLines(kind, stored, wanted, rows) {
    const head = [
        `--- ${exports.WEBHOOK_LABEL[kind]} "${wanted.name}" ${stored ? `in Steadybit (id ${stored.id}, version ${stored.version ?? '?'})` : '(none in Steadybit)'}`,
        `+++ ${exports.WEBHOOK_LABEL[kind]} "${wanted.name}" as connect sets it`,
    ];
    const body = rows.flatMap((f) => {
        if (stored === undefined)
            return [`+ ${f.label}: ${f.wanted}`];
        if (f.same)
            return [`  ${f.label}: ${f.wanted}`];
        return [`- ${f.label}: ${f.stored}`, `+ ${f.label}: ${f.wanted}`];
    });
    return [...head, ...body];
}
/**
 * Plans one webhook: the one stored under `wanted.name` is updated (its id, version and extra
 * headers kept), none is created, several with that name are refused (which one is meant cannot be
 * told). A secret Steadybit does not show counts as changed: it is sent again.
 */
function planWebhook(kind, wanted, stored) {
    const named = stored.filter((w) => w.name === wanted.name);
    if (named.length > 1) {
        return {
            ok: false,
            message: `${named.length} ${exports.WEBHOOK_LABEL[kind]}s are named "${wanted.name}" in Steadybit (ids ${named.map((w) => w.id).join(', ')}): delete all but one, or choose another --name`,
        };
    }
    const existing = named[0];
    const rows = fields(existing, wanted);
    const diff = diffLines(kind, existing, wanted, rows);
    if (!existing)
        return { ok: true, plan: { kind, name: wanted.name, action: 'create', upsert: wanted, diff } };
    const upsert = {
        ...wanted,
        id: existing.id,
        ...(existing.version === undefined ? {} : { version: existing.version }),
        ...(existing.headers ? { headers: existing.headers } : {}),
    };
    const action = rows.every((f) => f.same) ? 'unchanged' : 'update';
    return { ok: true, plan: { kind, name: wanted.name, action, stored: existing, upsert, diff } };
}
//# sourceMappingURL=webhook-plan.js.map
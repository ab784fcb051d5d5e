"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getWebhooks = getWebhooks;
exports.upsertWebhook = upsertWebhook;
exports.deleteWebhook = deleteWebhook;
const PATH = {
    preflight: '/api/integrations/preflight',
    custom: '/api/integrations/webhook',
};
const ENDPOINT = { preflight: 'preflight_webhooks', custom: 'custom_webhooks' };
const SCHEMA = { preflight: 'PreflightWebhookAO', custom: 'CustomWebhookAO' };
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v) => Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined;
const invalid = (what) => ({
    ok: false,
    failure: { outcome: 'invalid_response', message: `the answer is not ${what}` },
});
/** A webhook as the platform answered it, or undefined when a required field is missing. */
function webhookConfig(v) {
    if (!isObject(v) || typeof v.id !== 'string' || typeof v.name !== 'string' || typeof v.url !== 'string')
        return undefined;
    const events = strings(v.events);
    const includes = strings(v.targetAttributeIncludes) ?? [];
    if (events === undefined || (v.scope !== 'GLOBAL' && v.scope !== 'TEAM'))
        return undefined;
    const headers = isObject(v.headers)
        ? Object.fromEntries(Object.entries(v.headers).filter((e) => typeof e[1] === 'string'))
        : undefined;
    return {
        id: v.id,
        name: v.name,
        scope: v.scope,
        url: v.url,
        events,
        targetAttributeIncludes: includes,
        ...(typeof v.version === 'number' ? { version: v.version } : {}),
        ...(typeof v.team === 'string' ? { team: v.team } : {}),
        ...(typeof v.secret === 'string' ? { secret: v.secret } : {}),
        ...(headers ? { headers } : {}),
    };
}
/** GET /api/integrations/preflight or /api/integrations/webhook: `{"content": [...]}`, not paged. */
async function getWebhooks(client, kind, deadlineMs) {
    const res = await client.call({ endpoint: ENDPOINT[kind], method: 'GET', path: PATH[kind], deadlineMs });
    if (!res.ok)
        return res;
    if (!isObject(res.body) || !Array.isArray(res.body.content))
        return invalid(`a list of ${SCHEMA[kind]} ({"content": [...]})`);
    const out = [];
    for (const item of res.body.content) {
        const hook = webhookConfig(item);
        if (!hook)
            return invalid(`a list of ${SCHEMA[kind]} (an item lacks id, name, url, scope or events)`);
        out.push(hook);
    }
    return { ok: true, value: out };
}
/** POST /api/integrations/preflight or /api/integrations/webhook (needs an admin token): the stored webhook. */
async function upsertWebhook(client, kind, body, deadlineMs) {
    const res = await client.call({ endpoint: ENDPOINT[kind], method: 'POST', path: PATH[kind], body, deadlineMs });
    if (!res.ok)
        return res;
    const hook = webhookConfig(res.body);
    return hook ? { ok: true, value: hook } : invalid(SCHEMA[kind]);
}
/**
 * DELETE /api/integrations/preflight/{id} or /api/integrations/webhook/{id} (admin token): how
 * `connect` takes back a webhook it created. `gone` when the platform has none of that id (404).
 */
async function deleteWebhook(client, kind, id, deadlineMs) {
    const res = await client.call({
        endpoint: ENDPOINT[kind],
        method: 'DELETE',
        path: `${PATH[kind]}/${encodeURIComponent(id)}`,
        deadlineMs,
        statusOnly: true,
    });
    if (res.ok)
        return { ok: true, value: 'deleted' };
    return res.failure.status === 404 ? { ok: true, value: 'gone' } : res;
}
//# sourceMappingURL=integration-endpoints.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.restoreWebhooks = restoreWebhooks;
const integration_endpoints_1 = require("../platform/integration-endpoints");
const webhook_plan_1 = require("./webhook-plan");
const SCREEN = { preflight: 'Preflight webhook', custom: 'Custom webhook' };
const API_PATH = {
    preflight: '/api/integrations/preflight',
    custom: '/api/integrations/webhook',
};
const list = (v) => (v.length === 0 ? '(none)' : v.join(', '));
/** How to delete a webhook connect created, by hand. */
function deleteByHand(kind, id) {
    return `delete it by hand: Steadybit Settings / Integrations / ${SCREEN[kind]}, or DELETE ${API_PATH[kind]}/${id} with an admin token`;
}
/** How to set a webhook back by hand: every field connect sets, the secret as its fingerprint. */
function setBackByHand(kind, before) {
    const secret = before.secret === undefined ? 'its previous secret' : `secret ${(0, webhook_plan_1.fingerprint)(before.secret)}`;
    return `set it back by hand in Steadybit Settings / Integrations / ${SCREEN[kind]}: url ${before.url}, scope ${before.scope}${before.team ? ` (team ${before.team})` : ''}, events ${list(before.events)}, targetAttributeIncludes ${list(before.targetAttributeIncludes)}, ${secret}`;
}
/** Whether `now` is still the webhook connect read before writing (the failed write was not applied). */
function untouched(now, before) {
    if (now.version !== undefined && before.version !== undefined)
        return now.version === before.version;
    const fields = (w) => JSON.stringify([w.url, w.scope, w.team, w.secret, w.events, w.targetAttributeIncludes, w.headers]);
    return fields(now) === fields(before);
}
/** A webhook connect created: none of that name existed before, so each one of that name now is connect's (a retried create may have made two). */
async function undoCreate(client, write, current, deadlineMs, report) {
    const { kind, name } = write.plan;
    for (const hook of current.filter((w) => w.name === name)) {
        const res = await (0, integration_endpoints_1.deleteWebhook)(client, kind, hook.id, deadlineMs);
        if (res.ok)
            report.restored.push(`${webhook_plan_1.WEBHOOK_LABEL[kind]} "${name}" deleted (id ${hook.id}): there was none before`);
        else
            report.notRestored.push(`${webhook_plan_1.WEBHOOK_LABEL[kind]} "${name}" (id ${hook.id}), created by connect, could not be deleted (${res.failure.message}): ${deleteByHand(kind, hook.id)}`);
    }
}
/** A webhook connect updated: put back as read before writing, unless someone changed it after connect did. */
async function undoUpdate(client, write, before, current, deadlineMs, report) {
    const { kind, name } = write.plan;
    const label = `${webhook_plan_1.WEBHOOK_LABEL[kind]} "${name}"`;
    const now = current.find((w) => w.id === before.id);
    if (!now) {
        report.notRestored.push(`${label} (id ${before.id}) is no longer in Steadybit (deleted meanwhile): re-create it if it is still wanted; ${setBackByHand(kind, before)}`);
        return;
    }
    if (write.written === undefined && untouched(now, before))
        return;
    if (write.written !== undefined && now.version !== write.written.version) {
        report.notRestored.push(`${label} was changed in Steadybit after connect wrote it (version ${now.version ?? '?'}, connect wrote ${write.written.version ?? '?'}), so it is left as it is; check it, and if needed ${setBackByHand(kind, before)}`);
        return;
    }
    // A secret Steadybit does not show cannot be put back: the one connect set stays, and is reported.
    const secret = before.secret ?? write.plan.upsert.secret;
    const upsert = {
        id: before.id,
        ...(now.version === undefined ? {} : { version: now.version }),
        name: before.name,
        scope: before.scope,
        ...(before.team === undefined ? {} : { team: before.team }),
        url: before.url,
        ...(secret === undefined ? {} : { secret }),
        events: before.events,
        targetAttributeIncludes: before.targetAttributeIncludes,
        ...(before.headers === undefined ? {} : { headers: before.headers }),
    };
    const res = await (0, integration_endpoints_1.upsertWebhook)(client, kind, upsert, deadlineMs);
    if (!res.ok) {
        report.notRestored.push(`${label} could not be put back (${res.failure.message}): ${setBackByHand(kind, before)}`);
        return;
    }
    report.restored.push(`${label} put back as it was (id ${before.id}, url ${before.url}${before.secret === undefined ? '' : `, secret ${(0, webhook_plan_1.fingerprint)(before.secret)}`}; now version ${res.value.version ?? '?'})`);
    if (before.secret === undefined)
        report.notRestored.push(`${label}: its previous secret could not be put back (Steadybit does not show secrets), it keeps the one connect set (${(0, webhook_plan_1.fingerprint)(secret ?? '')}): set the previous one by hand in Steadybit Settings / Integrations / ${SCREEN[kind]}`);
}
/**
 * After connect failed part-way: puts every webhook it wrote (or may have written: a write whose
 * answer was lost) back as Steadybit held it before, newest first, reading each kind again to see
 * what is there now. A webhook connect created is deleted; one it updated gets its earlier fields,
 * secret and headers back (its id kept, the version checked, so a change someone made after
 * connect's is never overwritten). Expected failures are lines of the report, never thrown.
 */
async function restoreWebhooks(client, writes, deadline) {
    const report = { restored: [], notRestored: [] };
    for (const write of [...writes].reverse()) {
        const { kind, name } = write.plan;
        const before = write.plan.stored;
        const current = await (0, integration_endpoints_1.getWebhooks)(client, kind, deadline());
        if (!current.ok) {
            const byHand = before === undefined
                ? `if one named "${name}" is there, ${deleteByHand(kind, write.written?.id ?? '<id>')}`
                : setBackByHand(kind, before);
            report.notRestored.push(`${webhook_plan_1.WEBHOOK_LABEL[kind]} "${name}": the ${webhook_plan_1.WEBHOOK_LABEL[kind]}s cannot be read to put it back (${current.failure.message}): ${byHand}`);
            continue;
        }
        if (before === undefined)
            await undoCreate(client, write, current.value, deadline(), report);
        else
            await undoUpdate(client, write, before, current.value, deadline(), report);
    }
    return report;
}
//# sourceMappingURL=restore-webhooks.js.map
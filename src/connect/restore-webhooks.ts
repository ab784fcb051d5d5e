import {
  deleteWebhook,
  getWebhooks,
  upsertWebhook,
  type WebhookConfig,
  type WebhookKind,
  type WebhookUpsert,
} from '../platform/integration-endpoints';
import type { PlatformClient } from '../platform/platform-client';
import { fingerprint, WEBHOOK_LABEL, type WebhookPlan } from './webhook-plan';

/** One webhook connect set out to write, and what Steadybit answered. */
export interface WebhookWrite {
  plan: WebhookPlan;
  /** The stored webhook Steadybit answered; absent when the write failed (which may still have been applied: a lost answer). */
  written?: WebhookConfig;
}

/** What putting the webhooks back did: a line per webhook put back, a line per one that is not as it was. */
export interface RestoreReport {
  restored: string[];
  /** Each says why, and how to fix it by hand. */
  notRestored: string[];
}

const SCREEN: Record<WebhookKind, string> = { preflight: 'Preflight webhook', custom: 'Custom webhook' };
const API_PATH: Record<WebhookKind, string> = {
  preflight: '/api/integrations/preflight',
  custom: '/api/integrations/webhook',
};

const list = (v: readonly string[]) => (v.length === 0 ? '(none)' : v.join(', '));

/** How to delete a webhook connect created, by hand. */
function deleteByHand(kind: WebhookKind, id: string): string {
  return `delete it by hand: Steadybit Settings / Integrations / ${SCREEN[kind]}, or DELETE ${API_PATH[kind]}/${id} with an admin token`;
}

/** How to set a webhook back by hand: every field connect sets, the secret as its fingerprint. */
function setBackByHand(kind: WebhookKind, before: WebhookConfig): string {
  const secret = before.secret === undefined ? 'its previous secret' : `secret ${fingerprint(before.secret)}`;
  return `set it back by hand in Steadybit Settings / Integrations / ${SCREEN[kind]}: url ${before.url}, scope ${before.scope}${before.team ? ` (team ${before.team})` : ''}, events ${list(before.events)}, targetAttributeIncludes ${list(before.targetAttributeIncludes)}, ${secret}`;
}

/** Whether `now` is still the webhook connect read before writing (the failed write was not applied). */
function untouched(now: WebhookConfig, before: WebhookConfig): boolean {
  if (now.version !== undefined && before.version !== undefined) return now.version === before.version;
  const fields = (w: WebhookConfig) =>
    JSON.stringify([w.url, w.scope, w.team, w.secret, w.events, w.targetAttributeIncludes, w.headers]);
  return fields(now) === fields(before);
}

/** A webhook connect created: none of that name existed before, so each one of that name now is connect's (a retried create may have made two). */
async function undoCreate(
  client: PlatformClient,
  write: WebhookWrite,
  current: readonly WebhookConfig[],
  deadlineMs: number,
  report: RestoreReport,
): Promise<void> {
  const { kind, name } = write.plan;
  for (const hook of current.filter((w) => w.name === name)) {
    const res = await deleteWebhook(client, kind, hook.id, deadlineMs);
    if (res.ok) report.restored.push(`${WEBHOOK_LABEL[kind]} "${name}" deleted (id ${hook.id}): there was none before`);
    else
      report.notRestored.push(
        `${WEBHOOK_LABEL[kind]} "${name}" (id ${hook.id}), created by connect, could not be deleted (${res.failure.message}): ${deleteByHand(kind, hook.id)}`,
      );
  }
}

/** A webhook connect updated: put back as read before writing, unless someone changed it after connect did. */
async function undoUpdate(
  client: PlatformClient,
  write: WebhookWrite,
  before: WebhookConfig,
  current: readonly WebhookConfig[],
  deadlineMs: number,
  report: RestoreReport,
): Promise<void> {
  const { kind, name } = write.plan;
  const label = `${WEBHOOK_LABEL[kind]} "${name}"`;
  const now = current.find((w) => w.id === before.id);
  if (!now) {
    report.notRestored.push(
      `${label} (id ${before.id}) is no longer in Steadybit (deleted meanwhile): re-create it if it is still wanted; ${setBackByHand(kind, before)}`,
    );
    return;
  }
  if (write.written === undefined && untouched(now, before)) return;
  if (write.written !== undefined && now.version !== write.written.version) {
    report.notRestored.push(
      `${label} was changed in Steadybit after connect wrote it (version ${now.version ?? '?'}, connect wrote ${write.written.version ?? '?'}), so it is left as it is; check it, and if needed ${setBackByHand(kind, before)}`,
    );
    return;
  }
  // A secret Steadybit does not show cannot be put back: the one connect set stays, and is reported.
  const secret = before.secret ?? write.plan.upsert.secret;
  const upsert: WebhookUpsert = {
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
  const res = await upsertWebhook(client, kind, upsert, deadlineMs);
  if (!res.ok) {
    report.notRestored.push(`${label} could not be put back (${res.failure.message}): ${setBackByHand(kind, before)}`);
    return;
  }
  report.restored.push(
    `${label} put back as it was (id ${before.id}, url ${before.url}${before.secret === undefined ? '' : `, secret ${fingerprint(before.secret)}`}; now version ${res.value.version ?? '?'})`,
  );
  if (before.secret === undefined)
    report.notRestored.push(
      `${label}: its previous secret could not be put back (Steadybit does not show secrets), it keeps the one connect set (${fingerprint(secret ?? '')}): set the previous one by hand in Steadybit Settings / Integrations / ${SCREEN[kind]}`,
    );
}

/**
 * After connect failed part-way: puts every webhook it wrote (or may have written: a write whose
 * answer was lost) back as Steadybit held it before, newest first, reading each kind again to see
 * what is there now. A webhook connect created is deleted; one it updated gets its earlier fields,
 * secret and headers back (its id kept, the version checked, so a change someone made after
 * connect's is never overwritten). Expected failures are lines of the report, never thrown.
 */
export async function restoreWebhooks(
  client: PlatformClient,
  writes: readonly WebhookWrite[],
  deadline: () => number,
): Promise<RestoreReport> {
  const report: RestoreReport = { restored: [], notRestored: [] };
  for (const write of [...writes].reverse()) {
    const { kind, name } = write.plan;
    const before = write.plan.stored;
    const current = await getWebhooks(client, kind, deadline());
    if (!current.ok) {
      const byHand =
        before === undefined
          ? `if one named "${name}" is there, ${deleteByHand(kind, write.written?.id ?? '<id>')}`
          : setBackByHand(kind, before);
      report.notRestored.push(
        `${WEBHOOK_LABEL[kind]} "${name}": the ${WEBHOOK_LABEL[kind]}s cannot be read to put it back (${current.failure.message}): ${byHand}`,
      );
      continue;
    }
    if (before === undefined) await undoCreate(client, write, current.value, deadline(), report);
    else await undoUpdate(client, write, before, current.value, deadline(), report);
  }
  return report;
}

import type { WebhookConfig, WebhookKind, WebhookUpsert } from '../platform/integration-endpoints';

/** What `connect` will do to one webhook: the body to send (none when unchanged) and the diff to show. */
export interface WebhookPlan {
  kind: WebhookKind;
  name: string;
  action: 'create' | 'update' | 'unchanged';
  /** The webhook as Steadybit held it when planned (what a failed `connect` restores); none when it creates. */
  stored?: WebhookConfig;
  /** The upsert body; `id` and `version` of the stored webhook when it updates. */
  upsert: WebhookUpsert;
  /** A unified-diff style listing: `  ` same, `- ` stored, `+ ` wanted. The secret only as a fingerprint. */
  diff: string[];
}

export type PlanResult = { ok: true; plan: WebhookPlan } | { ok: false; message: string };

/** How messages name each kind of webhook. */
export const WEBHOOK_LABEL: Record<WebhookKind, string> = { preflight: 'preflight webhook', custom: 'custom webhook' };

import { fingerprint } from '../signature/secret-fingerprint';

export { fingerprint };

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

interface Field {
  label: string;
  stored?: string;
  wanted: string;
  same: boolean;
}

function fields(stored: WebhookConfig | undefined, wanted: WebhookUpsert): Field[] {
  const list = (v: readonly string[]) => (v.length === 0 ? '(none)' : v.join(', '));
  const secretStored =
    stored === undefined
      ? undefined
      : stored.secret === undefined
        ? '(not shown by Steadybit)'
        : fingerprint(stored.secret);
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
      wanted: fingerprint(wanted.secret ?? ''),
      same: stored?.secret !== undefined && stored.secret === wanted.secret,
    },
  ];
}

function diffLines(
  kind: WebhookKind,
  stored: WebhookConfig | undefined,
  wanted: WebhookUpsert,
  rows: Field[],
): string[] {
  const head = [
    `--- ${WEBHOOK_LABEL[kind]} "${wanted.name}" ${stored ? `in Steadybit (id ${stored.id}, version ${stored.version ?? '?'})` : '(none in Steadybit)'}`,
    `+++ ${WEBHOOK_LABEL[kind]} "${wanted.name}" as connect sets it`,
  ];
  const body = rows.flatMap((f) => {
    if (stored === undefined) return [`+ ${f.label}: ${f.wanted}`];
    if (f.same) return [`  ${f.label}: ${f.wanted}`];
    return [`- ${f.label}: ${f.stored}`, `+ ${f.label}: ${f.wanted}`];
  });
  return [...head, ...body];
}

/**
 * Plans one webhook: the one stored under `wanted.name` is updated (its id, version and extra
 * headers kept), none is created, several with that name are refused (which one is meant cannot be
 * told). A secret Steadybit does not show counts as changed: it is sent again.
 */
export function planWebhook(kind: WebhookKind, wanted: WebhookUpsert, stored: readonly WebhookConfig[]): PlanResult {
  const named = stored.filter((w) => w.name === wanted.name);
  if (named.length > 1) {
    return {
      ok: false,
      message: `${named.length} ${WEBHOOK_LABEL[kind]}s are named "${wanted.name}" in Steadybit (ids ${named.map((w) => w.id).join(', ')}): delete all but one, or choose another --name`,
    };
  }
  const existing = named[0];
  const rows = fields(existing, wanted);
  const diff = diffLines(kind, existing, wanted, rows);
  if (!existing) return { ok: true, plan: { kind, name: wanted.name, action: 'create', upsert: wanted, diff } };
  const upsert: WebhookUpsert = {
    ...wanted,
    id: existing.id,
    ...(existing.version === undefined ? {} : { version: existing.version }),
    ...(existing.headers ? { headers: existing.headers } : {}),
  };
  const action = rows.every((f) => f.same) ? 'unchanged' : 'update';
  return { ok: true, plan: { kind, name: wanted.name, action, stored: existing, upsert, diff } };
}

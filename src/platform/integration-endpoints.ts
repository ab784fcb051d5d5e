import type { Read } from './platform-endpoints';
import type { PlatformClient } from './platform-client';

/** Which of Steadybit's webhook integrations: the preflight webhook or a custom webhook. */
export type WebhookKind = 'preflight' | 'custom';

/** PreflightWebhookAO / CustomWebhookAO as stored in Steadybit (both have the same fields). */
export interface WebhookConfig {
  id: string;
  version?: number;
  name: string;
  scope: 'GLOBAL' | 'TEAM';
  team?: string;
  url: string;
  /** Absent when the platform does not show it. */
  secret?: string;
  events: string[];
  targetAttributeIncludes: string[];
  headers?: Record<string, string>;
}

/** PreflightWebhookUpsertAO / CustomWebhookUpsertAO: `id` and `version` when it updates. */
export type WebhookUpsert = Omit<WebhookConfig, 'id' | 'version'> & { id?: string; version?: number };

const PATH: Record<WebhookKind, string> = {
  preflight: '/api/integrations/preflight',
  custom: '/api/integrations/webhook',
};
const ENDPOINT = { preflight: 'preflight_webhooks', custom: 'custom_webhooks' } as const;
const SCHEMA: Record<WebhookKind, string> = { preflight: 'PreflightWebhookAO', custom: 'CustomWebhookAO' };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined;
const invalid = <T>(what: string): Read<T> => ({
  ok: false,
  failure: { outcome: 'invalid_response', message: `the answer is not ${what}` },
});

/** A webhook as the platform answered it, or undefined when a required field is missing. */
function webhookConfig(v: unknown): WebhookConfig | undefined {
  if (!isObject(v) || typeof v.id !== 'string' || typeof v.name !== 'string' || typeof v.url !== 'string')
    return undefined;
  const events = strings(v.events);
  const includes = strings(v.targetAttributeIncludes) ?? [];
  if (events === undefined || (v.scope !== 'GLOBAL' && v.scope !== 'TEAM')) return undefined;
  const headers = isObject(v.headers)
    ? Object.fromEntries(Object.entries(v.headers).filter((e): e is [string, string] => typeof e[1] === 'string'))
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
export async function getWebhooks(
  client: PlatformClient,
  kind: WebhookKind,
  deadlineMs: number,
): Promise<Read<WebhookConfig[]>> {
  const res = await client.call({ endpoint: ENDPOINT[kind], method: 'GET', path: PATH[kind], deadlineMs });
  if (!res.ok) return res;
  if (!isObject(res.body) || !Array.isArray(res.body.content))
    return invalid(`a list of ${SCHEMA[kind]} ({"content": [...]})`);
  const out: WebhookConfig[] = [];
  for (const item of res.body.content) {
    const hook = webhookConfig(item);
    if (!hook) return invalid(`a list of ${SCHEMA[kind]} (an item lacks id, name, url, scope or events)`);
    out.push(hook);
  }
  return { ok: true, value: out };
}

/** POST /api/integrations/preflight or /api/integrations/webhook (needs an admin token): the stored webhook. */
export async function upsertWebhook(
  client: PlatformClient,
  kind: WebhookKind,
  body: WebhookUpsert,
  deadlineMs: number,
): Promise<Read<WebhookConfig>> {
  const res = await client.call({ endpoint: ENDPOINT[kind], method: 'POST', path: PATH[kind], body, deadlineMs });
  if (!res.ok) return res;
  const hook = webhookConfig(res.body);
  return hook ? { ok: true, value: hook } : invalid(SCHEMA[kind]);
}

/**
 * DELETE /api/integrations/preflight/{id} or /api/integrations/webhook/{id} (admin token): how
 * `connect` takes back a webhook it created. `gone` when the platform has none of that id (404).
 */
export async function deleteWebhook(
  client: PlatformClient,
  kind: WebhookKind,
  id: string,
  deadlineMs: number,
): Promise<Read<'deleted' | 'gone'>> {
  const res = await client.call({
    endpoint: ENDPOINT[kind],
    method: 'DELETE',
    path: `${PATH[kind]}/${encodeURIComponent(id)}`,
    deadlineMs,
    statusOnly: true,
  });
  if (res.ok) return { ok: true, value: 'deleted' };
  return res.failure.status === 404 ? { ok: true, value: 'gone' } : res;
}

import type { ApiFailure, PlatformClient } from './platform-client';

/**
 * The Platform API operations the service uses (openapi-platform-subset.json, Steadybit 2.8.7),
 * each reading only the fields it needs from the answer. An answer without them is an
 * `invalid_response` failure: a value, like every expected failure.
 */
export type Read<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

export interface EnvironmentName {
  id: string;
  name: string;
}
/** KillswitchAO: no field is required; `active` missing counts as an unusable answer. */
export interface KillswitchStatus {
  active: boolean;
  engaged?: string;
  engagedBy?: string;
  engagedByName?: string;
}
/** ExperimentExecutionPageItemAO, as far as state needs it (`environment` is a name). */
export interface ExecutionItem {
  id: string;
  teamKey?: string;
  environment?: string;
  state?: string;
  requested?: string;
  created?: string;
  started?: string;
  ended?: string;
}
export interface PreflightWebhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  targetAttributeIncludes: string[];
}
export interface PropertyDefinition {
  key: string;
  dataType: string;
}

/** ExperimentExecutionsRequestAO filters the service uses (page and size are set while paging). */
export interface ExecutionSearch {
  states: string[];
  endedFrom?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const invalid = <T>(what: string): Read<T> => ({
  ok: false,
  failure: { outcome: 'invalid_response', message: `the answer is not ${what}` },
});

/** Page size of the paged searches: the schemas' maximum. */
export const PAGE_SIZE = 100;
/** At most this many pages per search (10,000 items): a bound on calls if nextPage never ends. */
export const MAX_PAGES = 100;

/** GET /api/environments (getEnvironments): every environment, not paged. */
export async function getEnvironments(client: PlatformClient, deadlineMs: number): Promise<Read<EnvironmentName[]>> {
  const res = await client.call({ endpoint: 'environments', method: 'GET', path: '/api/environments', deadlineMs });
  if (!res.ok) return res;
  if (!isObject(res.body) || !Array.isArray(res.body.environments))
    return invalid('EnvironmentSummariesAO ({"environments": [...]})');
  const out: EnvironmentName[] = [];
  for (const e of res.body.environments) {
    if (isObject(e) && typeof e.id === 'string' && typeof e.name === 'string') out.push({ id: e.id, name: e.name });
  }
  return { ok: true, value: out };
}

/** GET /api/killswitch (getKillswitch). */
export async function getKillswitch(client: PlatformClient, deadlineMs: number): Promise<Read<KillswitchStatus>> {
  const res = await client.call({ endpoint: 'killswitch', method: 'GET', path: '/api/killswitch', deadlineMs });
  if (!res.ok) return res;
  const b = res.body;
  if (!isObject(b) || typeof b.active !== 'boolean') return invalid('KillswitchAO with a boolean "active"');
  const details = isObject(b.engagedByDetails) ? b.engagedByDetails : {};
  return {
    ok: true,
    value: {
      active: b.active,
      engaged: str(b.engaged),
      engagedBy: str(b.engagedBy),
      engagedByName: str(details.name) ?? str(details.username),
    },
  };
}

function executionItem(v: unknown): ExecutionItem | undefined {
  if (!isObject(v) || (typeof v.id !== 'number' && typeof v.id !== 'string')) return undefined;
  return {
    id: String(v.id),
    teamKey: str(v.teamKey),
    environment: str(v.environment),
    state: str(v.state),
    requested: str(v.requested),
    created: str(v.created),
    started: str(v.started),
    ended: str(v.ended),
  };
}

interface Page<T> {
  items: T[];
  nextPage: number | null;
}

/** Pages through a search from page 0 until `nextPage` is null (bounded by MAX_PAGES). */
async function allPages<T>(fetchPage: (page: number) => Promise<Read<Page<T>>>): Promise<Read<T[]>> {
  const out: T[] = [];
  let page: number | null = 0;
  for (let n = 0; page !== null; n++) {
    if (n === MAX_PAGES)
      return {
        ok: false,
        failure: {
          outcome: 'invalid_response',
          message: `more than ${MAX_PAGES} pages of ${PAGE_SIZE}: stopped paging`,
        },
      };
    const res: Read<Page<T>> = await fetchPage(page);
    if (!res.ok) return res;
    out.push(...res.value.items);
    if (res.value.nextPage !== null && res.value.nextPage <= page)
      return invalid(`a next page after ${page} (nextPage ${res.value.nextPage})`);
    page = res.value.nextPage;
  }
  return { ok: true, value: out };
}

function pageOf<T>(body: unknown, item: (v: unknown) => T | undefined, what: string): Read<Page<T>> {
  if (!isObject(body) || !Array.isArray(body.items)) return invalid(`${what} (a page with "items")`);
  const next = body.nextPage;
  if (next !== undefined && next !== null && !Number.isInteger(next))
    return invalid(`${what} (nextPage must be a whole number or null)`);
  const items: T[] = [];
  for (const v of body.items) {
    const parsed = item(v);
    if (parsed === undefined) return invalid(`${what} (an item lacks its id or key)`);
    items.push(parsed);
  }
  return { ok: true, value: { items, nextPage: (next ?? null) as number | null } };
}

/** POST /api/experiments/executions (getExperimentExecutions_2), every page. */
export async function searchExecutions(
  client: PlatformClient,
  search: ExecutionSearch,
  deadlineMs: number,
): Promise<Read<ExecutionItem[]>> {
  return allPages(async (page) => {
    const body = {
      states: search.states,
      ...(search.endedFrom ? { endedFrom: search.endedFrom } : {}),
      page,
      size: PAGE_SIZE,
    };
    const res = await client.call({
      endpoint: 'executions',
      method: 'POST',
      path: '/api/experiments/executions',
      body,
      deadlineMs,
    });
    return res.ok ? pageOf(res.body, executionItem, 'PagedResponseAOExperimentExecutionPageItemAO') : res;
  });
}

/** GET /api/integrations/preflight (getPreflightWebhooks): `{"content": [...]}`, not paged. */
export async function getPreflightWebhooks(
  client: PlatformClient,
  deadlineMs: number,
): Promise<Read<PreflightWebhook[]>> {
  const res = await client.call({
    endpoint: 'preflight_webhooks',
    method: 'GET',
    path: '/api/integrations/preflight',
    deadlineMs,
  });
  if (!res.ok) return res;
  if (!isObject(res.body) || !Array.isArray(res.body.content))
    return invalid('ListResponsePreflightWebhookAO ({"content": [...]})');
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  return {
    ok: true,
    value: res.body.content.filter(isObject).map((w) => ({
      id: str(w.id) ?? '',
      name: str(w.name) ?? '',
      url: str(w.url) ?? '',
      events: strings(w.events),
      targetAttributeIncludes: strings(w.targetAttributeIncludes),
    })),
  };
}

/** GET /api/properties/definitions (getPropertyDefinitions): `page` is a PageRequestAO, sent as `?page=0&size=100`. */
export async function getPropertyDefinitions(
  client: PlatformClient,
  deadlineMs: number,
): Promise<Read<PropertyDefinition[]>> {
  const item = (v: unknown) =>
    isObject(v) && typeof v.key === 'string' && typeof v.dataType === 'string'
      ? { key: v.key, dataType: v.dataType }
      : undefined;
  return allPages(async (page) => {
    const res = await client.call({
      endpoint: 'property_definitions',
      method: 'GET',
      path: `/api/properties/definitions?page=${page}&size=${PAGE_SIZE}`,
      deadlineMs,
    });
    return res.ok ? pageOf(res.body, item, 'PagedResponseAOPropertyDefinitionAO') : res;
  });
}

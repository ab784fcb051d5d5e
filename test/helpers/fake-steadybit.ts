import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operationSchema, operationSchemaOrNone, schemaProblems } from './platform-spec';

/** Objects shaped as the spec's schemas (EnvironmentAO, KillswitchAO, ...): loose here, checked against the spec. */
type Obj = Record<string, unknown>;

/** One planned misbehaviour, used by the next matching request(s). */
export interface Fault {
  /** Only requests to this path (without query) meet the fault; all paths when absent. */
  path?: string;
  /** Only requests of this method meet it; every method when absent. */
  method?: string;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Answer (normally, or with `status`) only after this long. */
  delayMs?: number;
  /** Cut the connection without an answer. */
  drop?: boolean;
  /** Do what the request asks, then cut the connection without the answer (a lost answer). */
  dropAnswer?: boolean;
  /** How many requests meet it (default 1). */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  body?: unknown;
}
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface FakeOptions {
  /** Tokens the fake accepts (rotation: add the new one, remove the old). */
  tokens?: string[];
  /** `current`: `Bearer` and the legacy `accessToken`; `legacy`: only `accessToken` (older on-prem). */
  platform?: 'current' | 'legacy';
  /** Steadybit's own limit, as its CLI describes it: a burst, then `refill` more per `windowMs`. */
  rateLimit?: { burst: number; refill: number; windowMs: number };
  /** The webhook lists leave `secret` out (whether the platform shows it is not documented). */
  hideSecrets?: boolean;
}

/** One webhook call the fake made, as Steadybit makes them, and what the receiver answered. */
export interface Delivery {
  kind: 'preflight' | 'custom';
  url: string;
  event: string;
  executionId: number;
  status: number;
  body: unknown;
}

const ENV_PREDICATE = { operator: 'AND', predicates: [] };

/** An EnvironmentAO as the platform answers it. */
export function environment(id: string, name: string): Obj {
  return { id, name, version: 1, predicate: ENV_PREDICATE, query: null, state: 'READY' };
}

/** A MemberAO as GET /api/teams/{key}/members lists it (email is nullable in the spec). */
export function member(username: string, email: string | null, role: 'OWNER' | 'MEMBER' = 'MEMBER'): Obj {
  return { username, name: username, email, pictureUrl: null, role, managedBy: 'MANUAL' };
}

/** An ExperimentExecutionPageItemAO. */
export function executionItem(id: number, fields: Obj): Obj {
  return {
    id,
    name: `run ${id}`,
    experimentKey: 'ADM-1',
    teamKey: 'ADM',
    environment: 'Global',
    scheduled: false,
    createdBy: 'u1',
    createdByDetails: { username: 'u1', name: 'Jane Doe' },
    properties: {},
    ...fields,
  };
}

/**
 * A small Steadybit Platform API on 127.0.0.1 serving the shapes of openapi-platform-subset.json:
 * the endpoints preflight-gate calls, the auth forms, paging and size limits the platform enforces,
 * Steadybit's rate limit with its documented 429 headers, and planned faults (5xx, slow answers,
 * cut connections). Every answer is recorded so tests check it against the spec's schemas.
 */
export class FakeSteadybit {
  url = '';
  environments: Obj[] = [];
  killswitch: Obj = { active: false };
  executions: Obj[] = [];
  preflightWebhooks: Obj[] = [];
  propertyDefinitions: Obj[] = [];
  customWebhooks: Obj[] = [];
  /** Experiments created through POST /api/experiments: `{key, externalId, design}`. */
  experiments: Array<{ key: string; externalId?: string; design: Obj }> = [];
  /** MemberAO lists by team key (GET /api/teams/{key}/members); a team not listed answers 404. */
  teamMembers: Record<string, Obj[]> = {};
  /** ExperimentExecutionAO of every run started through the API, by id. */
  readonly runs = new Map<number, Obj>();
  readonly deliveries: Delivery[] = [];
  /** While a run is held (a test sets it), its preflight is not sent: the run stays CREATED. */
  holdRuns = false;
  private readonly pending = new Set<Promise<void>>();
  private nextRunId = 4700;
  tokens: Set<string>;
  platform: 'current' | 'legacy';
  /** Every path answers 503 while true (an outage). */
  down = false;
  /**
   * Tokens the fake accepts for reading but refuses to cancel with (403), as Steadybit refuses a team
   * token of another team; the spec documents no 401/403 body, so the answer's is a plain message.
   */
  readonly cannotCancel = new Set<string>();
  faults: Fault[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly answers: RecordedAnswer[] = [];
  private readonly server: Server;
  private bucket?: { tokens: number; atMs: number };

  constructor(private readonly opts: FakeOptions = {}) {
    this.tokens = new Set(opts.tokens ?? ['test-token']);
    this.platform = opts.platform ?? 'current';
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await this.settled();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Requests to one path (without query). */
  calls(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Every recorded 2xx answer with a documented JSON body checked against its response schema: the list of problems. */
  specProblems(): string[] {
    return this.answers
      .filter((a) => a.status >= 200 && a.status < 300)
      .flatMap((a) => {
        const schema = operationSchemaOrNone(a.path, a.method, 'response', String(a.status));
        return schema === undefined ? [] : schemaProblems(schema, a.body);
      });
  }

  /** Resolves when every run started so far has made its webhook calls. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
    });
    const fault = this.takeFault(req.method ?? '', url.pathname);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.drop) {
      req.socket.destroy();
      return;
    }
    if (fault?.status)
      return this.send(req, res, url.pathname, fault.status, fault.body ?? { message: 'planned fault' }, fault.headers);
    if (this.down) return this.send(req, res, url.pathname, 503, { message: 'Service Unavailable' });
    if (!this.authorized(req.headers.authorization))
      return this.send(req, res, url.pathname, 401, { message: 'Unauthorized' });
    const limited = this.rateLimited();
    if (limited) return this.send(req, res, url.pathname, 429, { message: 'Too Many Requests' }, limited);
    const token = /^\S+ (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (/\/cancel$/.test(url.pathname) && this.cannotCancel.has(token))
      return this.send(req, res, url.pathname, 403, { message: 'Forbidden' });
    const [status, answer] = this.route(req.method ?? '', url, body);
    if (fault?.dropAnswer) {
      req.socket.destroy();
      return;
    }
    this.send(req, res, url.pathname, status, answer);
  }

  private takeFault(method: string, path: string): Fault | undefined {
    const i = this.faults.findIndex(
      (f) => (f.path === undefined || f.path === path) && (f.method === undefined || f.method === method),
    );
    if (i === -1) return undefined;
    const f = this.faults[i];
    f.times = (f.times ?? 1) - 1;
    if (f.times <= 0) this.faults.splice(i, 1);
    return f;
  }

  private authorized(header: string | undefined): boolean {
    const m = /^(\S+) (\S+)$/.exec(header ?? '');
    if (!m || !this.tokens.has(m[2])) return false;
    return m[1] === 'accessToken' || (m[1] === 'Bearer' && this.platform === 'current');
  }

  /** Steadybit's token bucket; a 429 carries the headers its docs show. */
  private rateLimited(): Record<string, string> | undefined {
    const limit = this.opts.rateLimit;
    if (!limit) return undefined;
    const now = Date.now();
    const b = (this.bucket ??= { tokens: limit.burst, atMs: now });
    b.tokens = Math.min(limit.burst, b.tokens + ((now - b.atMs) / limit.windowMs) * limit.refill);
    b.atMs = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return undefined;
    }
    const reset = String(Math.ceil((((1 - b.tokens) / limit.refill) * limit.windowMs) / 1000));
    return {
      'ratelimit-limit': `${limit.burst};w=${limit.windowMs / 1000}`,
      'ratelimit-remaining': '0',
      'ratelimit-reset': reset,
      'retry-after': reset,
    };
  }

  private route(method: string, url: URL, body: unknown): [number, unknown] {
    const key = `${method} ${url.pathname}`;
    switch (key) {
      case 'GET /api/environments':
        return [200, { environments: this.environments }];
      case 'GET /api/killswitch':
        return [200, this.killswitch];
      case 'GET /api/integrations/preflight':
        return [200, { content: this.preflightWebhooks.map((w) => this.shown(w)) }];
      case 'POST /api/experiments/executions':
        return this.searchExecutions(body);
      case 'GET /api/properties/definitions':
        return this.propertyPage(url.searchParams);
      case 'GET /api/integrations/webhook':
        return [200, { content: this.customWebhooks.map((w) => this.shown(w)) }];
      case 'POST /api/integrations/preflight':
        return this.upsertWebhook(this.preflightWebhooks, url.pathname, body);
      case 'POST /api/integrations/webhook':
        return this.upsertWebhook(this.customWebhooks, url.pathname, body);
      case 'POST /api/experiments':
        return this.upsertExperiment(body);
      case 'GET /api/experiments':
        return this.listExperiments(url.searchParams);
      default:
        return this.routeWithId(method, url.pathname);
    }
  }

  private routeWithId(method: string, path: string): [number, unknown] {
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = /^\/api\/experiments\/([^/]+)\/execute$/.exec(path)))
      return this.execute(decodeURIComponent(m[1]));
    if (method === 'DELETE' && (m = /^\/api\/experiments\/([^/]+)$/.exec(path)))
      return this.deleteExperiment(decodeURIComponent(m[1]));
    if (method === 'GET' && (m = /^\/api\/experiments\/executions\/(\d+)$/.exec(path))) {
      const run = this.runs.get(Number(m[1]));
      return run ? [200, run] : [404, { message: 'Experiment execution not found' }];
    }
    if (method === 'POST' && (m = /^\/api\/experiments\/executions\/(\d+)\/cancel$/.exec(path)))
      return this.cancel(Number(m[1]));
    if (method === 'DELETE' && (m = /^\/api\/integrations\/(preflight|webhook)\/([^/]+)$/.exec(path)))
      return this.deleteWebhook(m[1] === 'preflight' ? this.preflightWebhooks : this.customWebhooks, m[2]);
    if (method === 'GET' && (m = /^\/api\/teams\/([^/]+)\/members$/.exec(path))) {
      const members = this.teamMembers[decodeURIComponent(m[1])];
      return members ? [200, { members }] : [404, { message: 'Team with given key was not found' }];
    }
    return [404, { message: `no route ${method} ${path}` }];
  }

  private shown(w: Obj): Obj {
    if (!this.opts.hideSecrets) return w;
    const { secret: _secret, ...rest } = w;
    return rest;
  }

  /** POST /api/integrations/{preflight,webhook}: create (201) or update by id (200), version checked. */
  private upsertWebhook(list: Obj[], path: string, body: unknown): [number, unknown] {
    const problems = schemaProblems(operationSchema(path, 'POST', 'request'), body);
    const b = body as Obj;
    if (problems.length === 0 && b.scope === 'TEAM' && typeof b.team !== 'string')
      problems.push('team is required for scope TEAM');
    if (problems.length > 0) return [422, { message: problems.join('; ') }];
    const stored = { ...b };
    delete stored.id;
    delete stored.version;
    if (b.id === undefined || b.id === null) {
      const created = { id: randomUUID(), version: 0, ...stored };
      list.push(created);
      return [201, this.shown(created)];
    }
    const i = list.findIndex((w) => w.id === b.id);
    if (i === -1) return [422, { message: `no webhook with id ${String(b.id)}` }];
    if (typeof b.version === 'number' && b.version !== list[i].version)
      return [422, { message: 'version conflict: the webhook was changed meanwhile' }];
    list[i] = { id: b.id, version: Number(list[i].version) + 1, ...stored };
    return [200, this.shown(list[i])];
  }

  /** DELETE /api/integrations/{preflight,webhook}/{id}: 200 with the deleted webhook, 404 when none has that id. */
  private deleteWebhook(list: Obj[], id: string): [number, unknown] {
    const i = list.findIndex((w) => w.id === decodeURIComponent(id));
    if (i === -1) return [404, undefined];
    const [deleted] = list.splice(i, 1);
    return [200, this.shown(deleted)];
  }

  /** POST /api/experiments: an upsert keyed on externalId, answered without a body. */
  private upsertExperiment(body: unknown): [number, unknown] {
    const problems = schemaProblems(operationSchema('/api/experiments', 'POST', 'request'), body);
    if (problems.length > 0) return [422, { message: problems.join('; ') }];
    const design = body as Obj;
    const externalId = typeof design.externalId === 'string' ? design.externalId : undefined;
    const existing = externalId === undefined ? undefined : this.experiments.find((e) => e.externalId === externalId);
    if (existing) {
      existing.design = design;
      return [200, undefined];
    }
    const team = String(design.team);
    const n = this.experiments.filter((e) => e.key.startsWith(`${team}-`)).length + 1;
    this.experiments.push({ key: `${team}-${n}`, externalId, design });
    return [201, undefined];
  }

  private listExperiments(query: URLSearchParams): [number, unknown] {
    const ids = query.getAll('externalId');
    const hits = this.experiments.filter(
      (e) => ids.length === 0 || (e.externalId !== undefined && ids.includes(e.externalId)),
    );
    return [200, { experiments: hits.map((e) => ({ key: e.key, name: e.design.name })) }];
  }

  private deleteExperiment(key: string): [number, unknown] {
    const i = this.experiments.findIndex((e) => e.key === key);
    if (i === -1) return [404, { message: 'Experiment could not be found' }];
    this.experiments.splice(i, 1);
    return [200, undefined];
  }

  private cancel(id: number): [number, unknown] {
    const run = this.runs.get(id);
    if (!run) return [404, undefined];
    if (['COMPLETED', 'FAILED', 'ERRORED', 'CANCELED'].includes(String(run.state))) return [200, undefined];
    Object.assign(run, { state: 'CANCELED', ended: new Date().toISOString() });
    return [202, undefined];
  }

  /** POST /api/experiments/{key}/execute: 201 at once; the webhooks are called afterwards, as Steadybit does. */
  private execute(key: string): [number, unknown] {
    const experiment = this.experiments.find((e) => e.key === key);
    if (!experiment) return [404, { key, apiLocation: '-', uiLocation: '-' }];
    const id = this.nextRunId++;
    const d = experiment.design;
    const now = new Date().toISOString();
    const run: Obj = {
      id,
      key,
      name: d.name,
      hypothesis: d.hypothesis,
      tags: d.tags ?? [],
      requested: now,
      created: now,
      experimentVersion: 1,
      createdBy: { username: 'api-token', name: 'API' },
      createdVia: 'API',
      state: 'CREATED',
    };
    this.runs.set(id, run);
    if (!this.holdRuns) {
      const work = this.startRun(run, experiment.design).finally(() => this.pending.delete(work));
      this.pending.add(work);
    }
    return [
      201,
      {
        key,
        executionId: id,
        apiLocation: `${this.url}/api/experiments/executions/${id}`,
        uiLocation: `${this.url}/experiments/edit/${key}/executions/${id}`,
      },
    ];
  }

  /** The webhook payload of a run: WebhookPayloadAO with WebhookPayloadExecutionAO (wait steps only here). */
  private payload(event: string, run: Obj, design: Obj): Obj {
    const lanes = (design.lanes as Array<{ steps: Obj[] }>) ?? [];
    const steps = lanes
      .flatMap((l) => l.steps)
      .map((s) => ({
        id: randomUUID(),
        state: 'CREATED',
        ignoreFailure: s.ignoreFailure ?? false,
        parameters: s.parameters ?? {},
      }));
    const execution = {
      id: run.id,
      experimentKey: run.key,
      experimentVersion: 1,
      name: run.name,
      hypothesis: run.hypothesis,
      tags: run.tags,
      teamKey: design.team,
      environment: design.environment ?? 'Global',
      requested: run.requested,
      created: run.created,
      createdBy: run.createdBy,
      createdVia: 'API',
      state: run.state,
      ...(run.reason ? { reason: run.reason } : {}),
      ...(run.ended ? { ended: run.ended } : {}),
      steps,
    };
    return { event, time: new Date().toISOString(), execution };
  }

  private applies(hook: Obj, design: Obj, event: string): boolean {
    const events = (hook.events as string[]) ?? [];
    return (hook.scope === 'GLOBAL' || hook.team === design.team) && (events.includes(event) || events.includes('*'));
  }

  /** One signed call, as Steadybit makes it: the raw JSON, X-SB-Signature when the hook has a secret. */
  private async deliver(kind: Delivery['kind'], hook: Obj, event: string, run: Obj, design: Obj): Promise<Delivery> {
    const raw = JSON.stringify(this.payload(event, run, design));
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: '*/*' };
    if (typeof hook.secret === 'string' && hook.secret !== '')
      headers['x-sb-signature'] =
        `hmac-sha256 ${createHmac('sha256', Buffer.from(hook.secret, 'utf8')).update(raw).digest('hex')}`;
    let delivery: Delivery;
    try {
      const res = await fetch(String(hook.url), {
        method: 'POST',
        headers,
        body: raw,
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: kept as text */
      }
      delivery = { kind, url: String(hook.url), event, executionId: Number(run.id), status: res.status, body };
    } catch (err) {
      delivery = {
        kind,
        url: String(hook.url),
        event,
        executionId: Number(run.id),
        status: 0,
        body: String((err as Error).message),
      };
    }
    this.deliveries.push(delivery);
    return delivery;
  }

  private async sendEvent(event: string, run: Obj, design: Obj): Promise<void> {
    for (const hook of this.customWebhooks.filter((h) => this.applies(h, design, event)))
      await this.deliver('custom', hook, event, run, design);
  }

  /** A run's life: created event, every preflight webhook (one non-2xx fails the run), then the end event. */
  private async startRun(run: Obj, design: Obj): Promise<void> {
    await this.sendEvent('experiment.execution.created', run, design);
    for (const hook of this.preflightWebhooks.filter((h) =>
      this.applies(h, design, 'experiment.execution.preflight'),
    )) {
      const d = await this.deliver('preflight', hook, 'experiment.execution.preflight', run, design);
      if (d.status >= 200 && d.status < 300) continue;
      const message =
        typeof d.body === 'object' && d.body !== null && typeof (d.body as Obj).message === 'string'
          ? String((d.body as Obj).message)
          : `HTTP ${d.status}`;
      Object.assign(run, {
        state: 'FAILED',
        reason: `Preflight webhook "${String(hook.name)}" failed: ${message}`,
        ended: new Date().toISOString(),
      });
      await this.sendEvent('experiment.execution.failed', run, design);
      return;
    }
    Object.assign(run, { state: 'COMPLETED', started: new Date().toISOString(), ended: new Date().toISOString() });
    await this.sendEvent('experiment.execution.completed', run, design);
  }

  private searchExecutions(body: unknown): [number, unknown] {
    const problems =
      body === undefined
        ? ['the body is required']
        : schemaProblems(operationSchema('/api/experiments/executions', 'POST', 'request'), body);
    if (problems.length > 0) return [400, { message: problems.join('; ') }];
    const q = body as { page?: number; size?: number; states?: string[] | null; endedFrom?: string | null };
    const states = q.states ? new Set(q.states.map((s) => s.toUpperCase())) : undefined;
    const endedFrom = q.endedFrom ? Date.parse(q.endedFrom) : undefined;
    const hits = this.executions
      .filter((e) => !states || states.has(String(e.state).toUpperCase()))
      .filter((e) => endedFrom === undefined || (typeof e.ended === 'string' && Date.parse(e.ended) >= endedFrom))
      .sort((a, b) => Date.parse(String(b.created)) - Date.parse(String(a.created)));
    return [200, pageOf(hits, q.page ?? 0, q.size ?? 50)];
  }

  private propertyPage(query: URLSearchParams): [number, unknown] {
    const page = query.get('page');
    const size = Number(query.get('size') ?? 50);
    if (page === null || !/^\d+$/.test(page))
      return [400, { message: 'Required parameter page is missing or not a number' }];
    if (!Number.isInteger(size) || size < 1 || size > 100) return [400, { message: 'size must be between 1 and 100' }];
    return [200, pageOf(this.propertyDefinitions, Number(page), size)];
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    this.answers.push({ method: req.method ?? '', path, status, body });
    res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  }
}

function pageOf(items: Obj[], page: number, size: number): Obj {
  const start = page * size;
  return {
    totalItems: items.length,
    nextPage: start + size < items.length ? page + 1 : null,
    items: items.slice(start, start + size),
  };
}

/** A started fake; stop it in afterEach/afterAll. */
export async function startFakeSteadybit(opts?: FakeOptions): Promise<FakeSteadybit> {
  return new FakeSteadybit(opts).start();
}

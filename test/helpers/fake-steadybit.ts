import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operationSchema, schemaProblems } from './platform-spec';

/** Objects shaped as the spec's schemas (EnvironmentAO, KillswitchAO, ...): loose here, checked against the spec. */
type Obj = Record<string, unknown>;

/** One planned misbehaviour, used by the next matching request(s). */
export interface Fault {
  /** Only requests to this path (without query) meet the fault; all paths when absent. */
  path?: string;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Answer (normally, or with `status`) only after this long. */
  delayMs?: number;
  /** Cut the connection without an answer. */
  drop?: boolean;
  /** How many requests meet it (default 1). */
  times?: number;
}

export interface RecordedRequest { method: string; path: string; query: URLSearchParams; authorization?: string; body?: unknown }
export interface RecordedAnswer { method: string; path: string; status: number; body: unknown }

export interface FakeOptions {
  /** Tokens the fake accepts (rotation: add the new one, remove the old). */
  tokens?: string[];
  /** `current`: `Bearer` and the legacy `accessToken`; `legacy`: only `accessToken` (older on-prem). */
  platform?: 'current' | 'legacy';
  /** Steadybit's own limit, as its CLI describes it: a burst, then `refill` more per `windowMs`. */
  rateLimit?: { burst: number; refill: number; windowMs: number };
}

const ENV_PREDICATE = { operator: 'AND', predicates: [] };

/** An EnvironmentAO as the platform answers it. */
export function environment(id: string, name: string): Obj {
  return { id, name, version: 1, predicate: ENV_PREDICATE, query: null, state: 'READY' };
}

/** An ExperimentExecutionPageItemAO. */
export function executionItem(id: number, fields: Obj): Obj {
  return { id, name: `run ${id}`, experimentKey: 'ADM-1', teamKey: 'ADM', environment: 'Global', scheduled: false, createdBy: 'u1', createdByDetails: { username: 'u1', name: 'Jane Doe' }, properties: {}, ...fields };
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
  tokens: Set<string>;
  platform: 'current' | 'legacy';
  /** Every path answers 503 while true (an outage). */
  down = false;
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
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Requests to one path (without query). */
  calls(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Every recorded 200 answer checked against its operation's response schema: the list of problems. */
  specProblems(): string[] {
    return this.answers.filter((a) => a.status === 200).flatMap((a) => schemaProblems(operationSchema(a.path, a.method, 'response'), a.body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try { body = raw === '' ? undefined : JSON.parse(raw); } catch { body = raw; }
    this.requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body });
    const fault = this.takeFault(url.pathname);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.drop) { req.socket.destroy(); return; }
    if (fault?.status) return this.send(req, res, url.pathname, fault.status, fault.body ?? { message: 'planned fault' }, fault.headers);
    if (this.down) return this.send(req, res, url.pathname, 503, { message: 'Service Unavailable' });
    if (!this.authorized(req.headers.authorization)) return this.send(req, res, url.pathname, 401, { message: 'Unauthorized' });
    const limited = this.rateLimited();
    if (limited) return this.send(req, res, url.pathname, 429, { message: 'Too Many Requests' }, limited);
    const [status, answer] = this.route(req.method ?? '', url, body);
    this.send(req, res, url.pathname, status, answer);
  }

  private takeFault(path: string): Fault | undefined {
    const i = this.faults.findIndex((f) => f.path === undefined || f.path === path);
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
    if (b.tokens >= 1) { b.tokens -= 1; return undefined; }
    const reset = String(Math.ceil((((1 - b.tokens) / limit.refill) * limit.windowMs) / 1000));
    return { 'ratelimit-limit': `${limit.burst};w=${limit.windowMs / 1000}`, 'ratelimit-remaining': '0', 'ratelimit-reset': reset, 'retry-after': reset };
  }

  private route(method: string, url: URL, body: unknown): [number, unknown] {
    const key = `${method} ${url.pathname}`;
    switch (key) {
      case 'GET /api/environments': return [200, { environments: this.environments }];
      case 'GET /api/killswitch': return [200, this.killswitch];
      case 'GET /api/integrations/preflight': return [200, { content: this.preflightWebhooks }];
      case 'POST /api/experiments/executions': return this.searchExecutions(body);
      case 'GET /api/properties/definitions': return this.propertyPage(url.searchParams);
      default: return [404, { message: `no route ${key}` }];
    }
  }

  private searchExecutions(body: unknown): [number, unknown] {
    const problems = body === undefined ? ['the body is required'] : schemaProblems(operationSchema('/api/experiments/executions', 'POST', 'request'), body);
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
    if (page === null || !/^\d+$/.test(page)) return [400, { message: 'Required parameter page is missing or not a number' }];
    if (!Number.isInteger(size) || size < 1 || size > 100) return [400, { message: 'size must be between 1 and 100' }];
    return [200, pageOf(this.propertyDefinitions, Number(page), size)];
  }

  private send(req: IncomingMessage, res: ServerResponse, path: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.answers.push({ method: req.method ?? '', path, status, body });
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
}

function pageOf(items: Obj[], page: number, size: number): Obj {
  const start = page * size;
  return { totalItems: items.length, nextPage: start + size < items.length ? page + 1 : null, items: items.slice(start, start + size) };
}

/** A started fake; stop it in afterEach/afterAll. */
export async function startFakeSteadybit(opts?: FakeOptions): Promise<FakeSteadybit> {
  return new FakeSteadybit(opts).start();
}

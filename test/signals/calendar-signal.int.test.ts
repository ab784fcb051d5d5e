import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/payload/types';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { validateSignalFacts } from '../../src/policy/facts/validate-signal-facts';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { parseSignalsConfig } from '../../src/signals/signals-config';
import type { SignalsConfig } from '../../src/signals/signal-source';
import { FIXTURES } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'attacked-services.md'), 'utf8');
const PRESET = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .find((y) => y.includes('name: no-attack-during-change-freeze\n')) as string;
const EXAMPLE = readFileSync(join(ROOT, 'examples', 'attacked-services', 'change-freeze-calendar.yaml'), 'utf8');
const RUN = JSON.parse(
  readFileSync(join(ROOT, 'examples', 'attacked-services', 'run.json'), 'utf8'),
) as PreflightPayload;
const ics = (file: string) => readFileSync(join(FIXTURES, 'calendars', file), 'utf8');

/** A calendar server as Google, Outlook or Nextcloud publish one: text/calendar behind a bearer token. */
function calendarServer(requests: string[]): Server {
  return createServer((req, res) => {
    requests.push(`${req.headers.authorization} ${req.headers.accept} ${req.url}`);
    if (req.headers.authorization !== 'Bearer cal-token') {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
      return;
    }
    const files: Record<string, [string, string]> = {
      '/freezes.ics': ['text/calendar; charset=utf-8', ics('change-freezes.ics')],
      '/broken.ics': ['text/calendar', ics('malformed.ics')],
      '/login.ics': ['text/html', '<html><body>Sign in to see this calendar</body></html>'],
    };
    if (req.url === '/moved.ics') {
      res
        .writeHead(302, { location: '/freezes.ics', 'content-type': 'text/html' })
        .end('<a href="/freezes.ics">moved</a>');
      return;
    }
    if (req.url === '/retired.ics') {
      const page = `<!DOCTYPE html>\n<html>\n<head><title>404</title><style>body { margin: 0 }</style></head>\n<body>\n  <h1>Not Found</h1>\n  <p>The calendar\n  was retired.</p>\n${'<p>filler</p>\n'.repeat(60)}</body>\n</html>\n`;
      res.writeHead(404, { 'content-type': 'text/html' }).end(page);
      return;
    }
    const found = files[req.url ?? ''];
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such calendar');
      return;
    }
    res.writeHead(200, { 'content-type': found[0] }).end(found[1]);
  });
}

describe('a change-freeze calendar (.ics) as a signal, from a local calendar server', () => {
  const requests: string[] = [];
  let server: Server;
  let config: SignalsConfig;
  let dir: string;

  beforeAll(async () => {
    server = calendarServer(requests);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'calendar-signal-'));
    const token = join(dir, 'token');
    writeFileSync(token, 'cal-token\n');
    const sources = join(dir, 'sources.yaml');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(
      sources,
      `json:\n  change-calendar:\n    url: ${url}\n    format: ical\n    bearerTokenFile: ${token}\n`,
    );
    config = { ...parseSignalsConfig({ SIGNAL_SOURCES_FILE: sources }), cacheTtlMs: 0 };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Gathers as the service does, at the decision's `now`, then decides; the facts fit the facts schema. */
  async function decideAt(now: string, policy = PRESET, sources = config) {
    const at = new Date(now);
    const bundle = bundleFrom({ 'p.yaml': policy }, at);
    const gathered = await signalFactSource(createSignalGatherer({ config: sources })).gather(bundle.needs, RUN, at);
    if (!gathered.ok) throw new Error('facts not gathered');
    const signals = JSON.parse(JSON.stringify(gathered.facts.signals));
    expect(validateSignalFacts(signals)).toEqual(expect.objectContaining({ ok: true }));
    return { decision: decide(bundle, RUN, gathered.facts as Facts, at, { decisionId: 'd-1' }), signals };
  }

  it('the example policy is the documented preset', () => {
    expect(EXAMPLE).toContain(PRESET);
  });

  it('denies while an occurrence goes on, naming it, with the source auth and an iCalendar accept header', async () => {
    requests.length = 0;
    // Friday 2026-04-03 09:30 in Berlin (CEST): the weekly 09:00-17:00 freeze is 07:00-15:00 UTC.
    const { decision, signals } = await decideAt('2026-04-03T07:30:00Z');
    expect(requests).toEqual(['Bearer cal-token text/calendar /freezes.ics']);
    expect(decision.allowed).toBe(false);
    expect(decision.results[0].reasons).toEqual([
      expect.stringMatching(
        /^a change freeze is on: GET \/freezes\.ics on json "change-calendar" \(read [^)]+\) answered \["Friday release freeze until 2026-04-03T15:00:00\.000Z"\]$/,
      ),
    ]);
    expect(signals.json['change-calendar']['/freezes.ics'].body).toEqual({
      now: '2026-04-03T07:30:00.000Z',
      timeZone: 'Europe/Berlin',
      events: [
        {
          uid: 'friday-freeze@preflight-gate.test',
          summary: 'Friday release freeze',
          start: '2026-04-03T07:00:00.000Z',
          end: '2026-04-03T15:00:00.000Z',
          allDay: false,
          categories: ['freeze', 'release'],
          recurrenceId: '2026-04-03T07:00:00.000Z',
        },
      ],
    });
  });

  it.each([
    ['after the summer freeze (17:30 CEST)', '2026-04-03T15:30:00Z'],
    ['on the Friday EXDATE removes', '2026-04-10T10:00:00Z'],
    ['on the Friday whose occurrence RECURRENCE-ID moved to Thursday', '2026-04-17T10:00:00Z'],
  ])('allows %s', async (_name, now) => {
    const { decision } = await decideAt(now);
    expect(decision.allowed).toBe(true);
    expect(decision.results[0].result).toBe('pass');
  });

  it('one fetch serves decisions at different instants: each judges its own now', async () => {
    requests.length = 0;
    const cached = { ...config, cacheTtlMs: 60000 };
    // Read at 09:00 UTC: its occurrences of the next 24 hours are expanded then, and each decision picks its own.
    const gather = createSignalGatherer({ config: cached, clock: () => new Date('2026-04-16T09:00:00Z') });
    const need = { kind: 'json' as const, source: 'change-calendar', path: '/freezes.ics' };
    const inside = await gather([need], new Date('2026-04-16T10:00:00Z'));
    const outside = await gather([need], new Date('2026-04-16T17:00:00Z'));
    expect(requests).toHaveLength(1);
    const events = (facts: typeof inside) => {
      const answer = facts.json?.['change-calendar']['/freezes.ics'];
      return answer && 'body' in answer ? (answer.body as { events: Array<{ summary: string }> }).events : answer;
    };
    expect(events(inside)).toEqual([expect.objectContaining({ summary: 'Friday release freeze (moved to Thursday)' })]);
    expect(events(outside)).toEqual([]);
  });

  it.each([
    [
      'a malformed calendar',
      '/broken.ics',
      /could not be read \(event broken@preflight-gate\.test: Could not extract integer/,
    ],
    ['an HTML page answered with 200', '/login.ics', /could not be read \(the answer is not an iCalendar file/],
    ['a calendar that is not there (404)', '/gone.ics', /could not be read \(HTTP 404: no such calendar\)/],
    [
      // An error page is quoted as one short line, so other policies' reasons still fit the message.
      'a 404 error page in HTML',
      '/retired.ics',
      /could not be read \(HTTP 404: an HTML page: 404 Not Found The calendar was retired\. filler filler[ a-z]*…\)$/,
    ],
    [
      'a redirect (not followed)',
      '/moved.ics',
      /could not be read \(HTTP 302: a redirect, which is not followed; set the source's url/,
    ],
  ])('cannot decide on %s, and says why', async (_name, path, why) => {
    const { decision } = await decideAt('2026-04-03T07:30:00Z', PRESET.replace('/freezes.ics', path));
    expect(decision.allowed).toBe(false);
    expect(decision.results[0].reasons).toEqual([
      expect.stringMatching(new RegExp(`^cannot decide: GET ${path.replace('.', '\\.')} on json "change-calendar" `)),
    ]);
    expect(decision.results[0].reasons[0]).toMatch(why);
  });

  it('cannot decide with a wrong token (401)', async () => {
    const wrong = {
      ...config,
      sources: config.sources.map((s) => ({ ...s, auth: { type: 'bearer' as const, token: 'expired' } })),
    };
    const { decision } = await decideAt('2026-04-03T07:30:00Z', PRESET, wrong);
    expect(decision.results[0].reasons[0]).toMatch(/^cannot decide: .* could not be read \(HTTP 401: unauthorized\)$/);
  });

  it('cannot decide when the calendar server is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const away = { ...config, sources: config.sources.map((s) => ({ ...s, url: `http://127.0.0.1:${port}` })) };
    const { decision } = await decideAt('2026-04-03T07:30:00Z', PRESET, away);
    expect(decision.allowed).toBe(false);
    expect(decision.results[0].reasons[0]).toMatch(
      new RegExp(
        `^cannot decide: GET /freezes\\.ics on json "change-calendar" could not be read \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
      ),
    );
  });

  it('the archived facts decide the same way when replayed', async () => {
    const { decision, signals } = await decideAt('2026-11-27T10:00:00Z');
    expect(decision.results[0].reasons[0]).toContain(
      'answered ["Black Friday freeze until 2026-11-27T23:00:00.000Z","Friday release freeze until 2026-11-27T16:00:00.000Z"]',
    );
    const at = new Date('2026-11-27T10:00:00Z');
    const replayed = decide(bundleFrom({ 'p.yaml': PRESET }, at), RUN, { signals } as Facts, at, { decisionId: 'd-1' });
    expect(replayed.results).toEqual(decision.results);
  });
});

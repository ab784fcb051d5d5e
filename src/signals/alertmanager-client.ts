import { fetched, httpGetJson, type Fetched, type HttpAnswer } from './http-get-json';
import type { AlertFact, AlertsAnswer, SilenceFact } from '../policy/facts/signal-facts';
import type { SignalSource } from './signal-source';

/**
 * Every alert Alertmanager has not resolved, silenced and inhibited ones included (API v2
 * `GET /api/v2/alerts`): one query per source serves every rule and environment, and the rules
 * filter with their matchers, so a recorded answer replays exactly (docs/decisions/0011-signal-facts.md).
 */
export const ALERTS_PATH = '/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string');

/** Alertmanager's list, checked for what the rules read (labels as strings); anything else is an error. */
export function toAlertsAnswer(http: HttpAnswer, readAt: string): AlertsAnswer {
  if (!http.ok) return { readAt, error: http.error };
  if (http.status < 200 || http.status > 299)
    return { readAt, error: `HTTP ${http.status}: ${JSON.stringify(http.body).slice(0, 200)}` };
  if (!Array.isArray(http.body))
    return { readAt, error: 'the answer is not a list of alerts (is this an Alertmanager with API v2?)' };
  const alerts: AlertFact[] = [];
  for (const a of http.body) {
    if (!isRecord(a) || !isStringMap(a.labels))
      return { readAt, error: 'the answer lists an alert without string labels' };
    const fact: AlertFact = { labels: a.labels };
    if (typeof a.startsAt === 'string') fact.startsAt = a.startsAt;
    if (typeof a.endsAt === 'string') fact.endsAt = a.endsAt;
    if (typeof a.fingerprint === 'string') fact.fingerprint = a.fingerprint;
    if (isRecord(a.status)) {
      const s = a.status;
      fact.status = {
        state: s.state === 'active' || s.state === 'suppressed' || s.state === 'unprocessed' ? s.state : undefined,
        silencedBy: Array.isArray(s.silencedBy) ? s.silencedBy.map(String) : [],
        inhibitedBy: Array.isArray(s.inhibitedBy) ? s.inhibitedBy.map(String) : [],
      };
    }
    alerts.push(fact);
  }
  return { readAt, alerts };
}

/** Every silence Alertmanager keeps (active, pending and expired, until its retention drops them). */
export const SILENCES_PATH = '/api/v2/silences';

type SilencesRead = { silences: Record<string, SilenceFact> } | { silencesError: string };

const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** Alertmanager's silences by id, with their times; anything it cannot read is an error, so no silence hides an alert. */
export function toSilences(http: HttpAnswer): SilencesRead {
  if (!http.ok) return { silencesError: http.error };
  if (http.status < 200 || http.status > 299)
    return { silencesError: `HTTP ${http.status}: ${JSON.stringify(http.body).slice(0, 200)}` };
  if (!Array.isArray(http.body)) return { silencesError: 'the answer is not a list of silences' };
  const silences: Record<string, SilenceFact> = Object.create(null);
  for (const s of http.body) {
    if (!isRecord(s) || typeof s.id !== 'string' || !isTime(s.startsAt))
      return { silencesError: 'the answer lists a silence without an id or a start time' };
    const fact: SilenceFact = { startsAt: s.startsAt };
    if (isTime(s.updatedAt)) fact.updatedAt = s.updatedAt;
    if (isTime(s.endsAt)) fact.endsAt = s.endsAt;
    silences[s.id] = fact;
  }
  return { silences };
}

const silenced = (answer: AlertsAnswer): boolean =>
  'alerts' in answer && answer.alerts.some((a) => (a.status?.silencedBy?.length ?? 0) > 0);

/**
 * The alerts, and when one of them is silenced the silences too, read right after (a silence that
 * hides an alert is then in the list) within the same timeout: one pair of queries per source that every rule, run and
 * environment shares, and a recorded answer replays whether a silence began after a run started
 * (docs/guard.md, "Silences made during a run").
 */
export async function fetchAlerts(
  source: SignalSource,
  timeoutMs: number,
  clock: () => Date,
): Promise<Fetched<AlertsAnswer>> {
  const started = performance.now();
  const http = await httpGetJson(source, ALERTS_PATH, timeoutMs);
  const answer = toAlertsAnswer(http, clock().toISOString());
  if (!silenced(answer)) return fetched(http, answer);
  // Both within SIGNAL_TIMEOUT_MS, as one query: the silences get what the alerts left of it.
  const left = Math.floor(timeoutMs - (performance.now() - started));
  const silences: SilencesRead =
    left > 0
      ? toSilences(await httpGetJson(source, SILENCES_PATH, left))
      : { silencesError: `no time left of the ${timeoutMs} ms timeout after reading the alerts` };
  return fetched(http, { ...answer, ...silences });
}

import { fetched, httpGetJson, type Fetched, type HttpAnswer } from './http-get-json';
import type { AlertFact, AlertsAnswer } from '../policy/facts/signal-facts';
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

export async function fetchAlerts(
  source: SignalSource,
  timeoutMs: number,
  clock: () => Date,
): Promise<Fetched<AlertsAnswer>> {
  const http = await httpGetJson(source, ALERTS_PATH, timeoutMs);
  return fetched(http, toAlertsAnswer(http, clock().toISOString()));
}

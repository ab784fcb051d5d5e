"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SILENCES_PATH = exports.ALERTS_PATH = void 0;
exports.toAlertsAnswer = toAlertsAnswer;
exports.toSilences = toSilences;
exports.fetchAlerts = fetchAlerts;
const http_get_json_1 = require("./http-get-json");
/**
 * Every alert Alertmanager has not resolved, silenced and inhibited ones included (API v2
 * `GET /api/v2/alerts`): one query per source serves every rule and environment, and the rules
 * filter with their matchers, so a recorded answer replays exactly (docs/decisions/0011-signal-facts.md).
 */
exports.ALERTS_PATH = '/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true';
const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v) => isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
/** Alertmanager's list, checked for what the rules read (labels as strings); anything else is an error. */
function toAlertsAnswer(http, readAt) {
    if (!http.ok)
        return { readAt, error: http.error };
    if (http.status < 200 || http.status > 299)
        return { readAt, error: `HTTP ${http.status}: ${JSON.stringify(http.body).slice(0, 200)}` };
    if (!Array.isArray(http.body))
        return { readAt, error: 'the answer is not a list of alerts (is this an Alertmanager with API v2?)' };
    const alerts = [];
    for (const a of http.body) {
        if (!isRecord(a) || !isStringMap(a.labels))
            return { readAt, error: 'the answer lists an alert without string labels' };
        const fact = { labels: a.labels };
        if (typeof a.startsAt === 'string')
            fact.startsAt = a.startsAt;
        if (typeof a.endsAt === 'string')
            fact.endsAt = a.endsAt;
        if (typeof a.fingerprint === 'string')
            fact.fingerprint = a.fingerprint;
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
exports.SILENCES_PATH = '/api/v2/silences';
const isTime = (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
/** Alertmanager's silences by id, with their times; anything it cannot read is an error, so no silence hides an alert. */
function toSilences(http) {
    if (!http.ok)
        return { silencesError: http.error };
    if (http.status < 200 || http.status > 299)
        return { silencesError: `HTTP ${http.status}: ${JSON.stringify(http.body).slice(0, 200)}` };
    if (!Array.isArray(http.body))
        return { silencesError: 'the answer is not a list of silences' };
    const silences = Object.create(null);
    for (const s of http.body) {
        if (!isRecord(s) || typeof s.id !== 'string' || !isTime(s.startsAt))
            return { silencesError: 'the answer lists a silence without an id or a start time' };
        const fact = { startsAt: s.startsAt };
        if (isTime(s.updatedAt))
            fact.updatedAt = s.updatedAt;
        if (isTime(s.endsAt))
            fact.endsAt = s.endsAt;
        silences[s.id] = fact;
    }
    return { silences };
}
const silenced = (answer) => 'alerts' in answer && answer.alerts.some((a) => (a.status?.silencedBy?.length ?? 0) > 0);
/**
 * The alerts, and when one of them is silenced the silences too, read right after (a silence that
 * hides an alert is then in the list) within the same timeout: one pair of queries per source that every rule, run and
 * environment shares, and a recorded answer replays whether a silence began after a run started
 * (docs/guard.md, "Silences made during a run").
 */
async function fetchAlerts(source, timeoutMs, clock) {
    const started = performance.now();
    const http = await (0, http_get_json_1.httpGetJson)(source, exports.ALERTS_PATH, timeoutMs);
    const answer = toAlertsAnswer(http, clock().toISOString());
    if (!silenced(answer))
        return (0, http_get_json_1.fetched)(http, answer);
    // Both within SIGNAL_TIMEOUT_MS, as one query: the silences get what the alerts left of it.
    const left = Math.floor(timeoutMs - (performance.now() - started));
    const silences = left > 0
        ? toSilences(await (0, http_get_json_1.httpGetJson)(source, exports.SILENCES_PATH, left))
        : { silencesError: `no time left of the ${timeoutMs} ms timeout after reading the alerts` };
    return (0, http_get_json_1.fetched)(http, { ...answer, ...silences });
}
//# sourceMappingURL=alertmanager-client.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.alertsDim = exports.promDim = exports.ALERTS = exports.PROM = void 0;
exports.signalReads = signalReads;
exports.signalDims = signalDims;
exports.alertsAnswerOf = alertsAnswerOf;
exports.signalFactsOf = signalFactsOf;
const alerts_check_1 = require("../policy/signals/alerts-check");
const deny_when_1 = require("../policy/signals/deny-when");
const matcher_1 = require("../policy/signals/matcher");
const prom_query_1 = require("../policy/signals/prom-query");
const signal_rule_specs_1 = require("../policy/signals/signal-rule-specs");
const source_kind_1 = require("../policy/signals/source-kind");
const value_classes_1 = require("./value-classes");
/*
 * The signals the analysed `prometheus` and `alerts` rules read (docs/decisions/0034-signals-as-fact-classes.md):
 * one dimension per Prometheus query (its source and text), one per Alertmanager source. A rule
 * denies on a vector of samples exactly when it denies on one of them alone (or on none, when all
 * are NaN), and on a list of alerts exactly when it denies on one of them alone, so one sample (or
 * none) and one alert (or none) stand for every answer.
 */
exports.PROM = 'prom:';
exports.ALERTS = 'alerts:';
const promDim = (source, query) => `${exports.PROM}${JSON.stringify([source, query])}`;
exports.promDim = promDim;
const alertsDim = (source) => `${exports.ALERTS}${source}`;
exports.alertsDim = alertsDim;
const asObject = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
const sourceOf = (spec) => (typeof spec.source === 'string' ? spec.source : source_kind_1.DEFAULT_SOURCE);
/** A regex matcher the analysis splits: alternatives of plain text (`critical|page`), compared whole. */
const PLAIN_ALTERNATIVES = /^[\w\-:/@ ]*(\|[\w\-:/@ ]*)*$/;
function matchersOf(spec) {
    const texts = typeof spec.matchers === 'string' ? [spec.matchers] : Array.isArray(spec.matchers) ? spec.matchers : [];
    const out = [];
    for (const t of texts) {
        const parsed = typeof t === 'string' ? (0, matcher_1.parseMatchers)(t) : 'not a string';
        if (typeof parsed === 'string')
            return undefined;
        out.push(...parsed);
    }
    return out;
}
/** Why a signal rule is beyond the analysis: a placeholder filled per run, a regex matcher it cannot split. */
function signalOutside(kind, spec) {
    if (kind === 'prometheus') {
        const query = (0, prom_query_1.compilePromQuery)(String(spec.query));
        if (typeof query === 'string')
            return `its query does not compile (${query})`;
        if (query.text.names.length > 0)
            return `its query fills {{${query.text.names[0]}}} per run (signal rules with placeholders are not analysed)`;
        return undefined;
    }
    const matchers = matchersOf(spec);
    if (matchers === undefined)
        return 'its matchers do not parse';
    for (const m of matchers) {
        if (m.value.names.length > 0)
            return `its matcher ${m.name} fills {{${m.value.names[0]}}} per run (signal rules with placeholders are not analysed)`;
        if ((m.op === '=~' || m.op === '!~') && !PLAIN_ALTERNATIVES.test(m.value.source))
            return `its matcher ${m.name}${m.op}"${m.value.source}" is a regular expression the analysis does not split (only alternatives of plain text, a|b)`;
    }
    return undefined;
}
/** What a `prometheus` or `alerts` rule reads (its query's or its source's dimension), or why it is beyond the analysis. */
function signalReads(kind, spec, reads) {
    if (kind !== 'prometheus' && kind !== 'alerts')
        return undefined;
    const s = asObject(spec);
    const outside = signalOutside(kind, s);
    if (outside !== undefined)
        return outside;
    reads.set(kind === 'prometheus' ? (0, exports.promDim)(sourceOf(s), String(s.query)) : (0, exports.alertsDim)(sourceOf(s)), 'full');
    return undefined;
}
function signalRules(docs, kind) {
    return docs
        .flatMap((d) => (Array.isArray(d.rules) ? d.rules : []).map((r) => asObject(asObject(r)[kind])))
        .filter((s) => Object.keys(s).length > 0 && signalOutside(kind, s) === undefined);
}
/** Each query's classes: no samples first (what a rule that reads it lets through most), each side of every denyWhen written. */
function promClasses(specs) {
    const thresholds = new Map();
    for (const s of specs) {
        const dim = (0, exports.promDim)(sourceOf(s), String(s.query));
        const list = thresholds.get(dim) ?? [];
        const when = typeof s.denyWhen === 'string' ? (0, deny_when_1.parseDenyWhen)(s.denyWhen) : undefined;
        if (when !== undefined && typeof when !== 'string')
            list.push(when.threshold);
        thresholds.set(dim, list);
    }
    const out = new Map();
    for (const [dim, ts] of thresholds) {
        const finite = ts.filter(Number.isFinite);
        const infinite = ts.length > finite.length ? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY] : [];
        out.set(dim, ['no samples', ...(0, value_classes_1.numberClasses)(finite, { integer: false }), ...infinite, 'unavailable', 'refused']);
    }
    return out;
}
/** Label values a matcher tells apart: each it writes (an alternative of a|b each), none (`""`) and one no matcher writes. */
function labelCandidates(matchers) {
    const out = new Map();
    for (const m of matchers) {
        const set = out.get(m.name) ?? new Set(['', `${value_classes_1.OTHER}-label-value`]);
        for (const v of m.op === '=~' || m.op === '!~' ? m.value.source.split('|') : [m.value.source])
            set.add(v);
        out.set(m.name, set);
    }
    return new Map([...out].map(([k, v]) => [k, [...v]]));
}
/** Past this many label combinations of one source the classes are not all made: that dimension is not complete. */
const MAX_ALERT_COMBINATIONS = 20_000;
const SINCE = '2026-01-01T00:00:00.000Z';
/**
 * Each source's classes: no alert, one alert per combination of the labels its rules' matchers tell
 * apart and of inhibited or silenced since before the run (two alerts are one class when every
 * rule reading the source counts both or neither, as the engine's check says), the source not answering.
 */
function alertClasses(specs) {
    const bySource = new Map();
    for (const s of specs)
        bySource.set(sourceOf(s), [...(bySource.get(sourceOf(s)) ?? []), s]);
    const out = new Map();
    for (const [source, rules] of bySource) {
        const checks = rules.flatMap((r) => {
            const c = (0, signal_rule_specs_1.compileAlertsSpec)(r);
            return 'message' in c ? [] : [c.check];
        });
        const labels = [...labelCandidates(checks.flatMap((c) => c.matchers))];
        const size = labels.reduce((n, [, vs]) => n * vs.length, 1);
        if (size > MAX_ALERT_COMBINATIONS) {
            out.set((0, exports.alertsDim)(source), {
                values: ['none', 'unavailable'],
                why: `the alerts of source ${source}: more label combinations (${size}) than the analysis makes`,
            });
            continue;
        }
        const seen = new Map();
        const statuses = [
            {},
            { inhibited: true },
            { silencedBeforeTheRun: true },
            { inhibited: true, silencedBeforeTheRun: true },
        ];
        for (let n = 0; n < size; n++) {
            const assigned = {};
            let rest = n;
            for (const [name, values] of labels) {
                const value = values[rest % values.length];
                rest = Math.floor(rest / values.length);
                if (value !== '')
                    assigned[name] = value;
            }
            for (const status of statuses) {
                const cls = { labels: assigned, ...status };
                const { answer, created } = alertsAnswerOf(cls, new Date(SINCE));
                const key = checks
                    .map((c) => (0, alerts_check_1.checkAlerts)(c, { alertmanager: { [source]: answer } }, [{}], new Date(SINCE), created).found.length > 0
                    ? 'd'
                    : 'a')
                    .join('');
                if (!seen.has(key))
                    seen.set(key, cls);
            }
        }
        const values = [...seen.values()].filter((c) => c !== 'none');
        out.set((0, exports.alertsDim)(source), { values: ['none', ...values, 'unavailable'] });
    }
    return out;
}
/** The signal dimensions of these documents' analysed `prometheus` and `alerts` rules. */
function signalDims(docs) {
    const out = [];
    for (const [name, values] of promClasses(signalRules(docs, 'prometheus')))
        out.push({ name, values, complete: true });
    for (const [name, c] of alertClasses(signalRules(docs, 'alerts')))
        out.push({ name, values: c.values, complete: c.why === undefined, ...(c.why ? { why: c.why } : {}) });
    return out;
}
const UNAVAILABLE = 'the source did not answer (prove)';
function promAnswer(cls, now) {
    if (cls === 'unavailable')
        return { error: UNAVAILABLE };
    if (cls === 'refused')
        return { error: 'bad_data: the query was refused (prove)', badQuery: true };
    const at = Math.floor(now.getTime() / 1000);
    if (cls === 'no samples')
        return { resultType: 'vector', result: [] };
    const text = Number.isFinite(cls) ? String(cls) : cls > 0 ? '+Inf' : '-Inf';
    return { resultType: 'vector', result: [{ metric: {}, value: [at, text] }] };
}
/**
 * A source's answer for an alert class at `now`; a silence that began before the run needs the
 * run's start (`execution.created`, an hour before now; the silence two hours before).
 */
function alertsAnswerOf(cls, now) {
    if (cls === 'none')
        return { answer: { alerts: [] } };
    if (cls === 'unavailable')
        return { answer: { error: UNAVAILABLE } };
    const silenced = cls.silencedBeforeTheRun === true;
    const status = {
        state: cls.inhibited || silenced ? 'suppressed' : 'active',
        ...(silenced ? { silencedBy: ['prove-silence'] } : {}),
        ...(cls.inhibited ? { inhibitedBy: ['prove-inhibiting-alert'] } : {}),
    };
    const alert = { labels: cls.labels, status };
    if (!silenced)
        return { answer: { alerts: [alert] } };
    const hour = 3_600_000;
    const startsAt = new Date(now.getTime() - 2 * hour).toISOString();
    return {
        answer: { alerts: [alert], silences: { 'prove-silence': { startsAt } } },
        created: new Date(now.getTime() - hour).toISOString(),
    };
}
/** The signal facts of a run (in the shape `eval --signals` reads) from its signal dimensions, and the run's start a silenced alert needs. */
function signalFactsOf(dims, value, now) {
    const signals = {};
    let created;
    for (const { name } of dims) {
        if (name.startsWith(exports.PROM)) {
            const [source, query] = JSON.parse(name.slice(exports.PROM.length));
            signals.prometheus ??= {};
            signals.prometheus[source] ??= {};
            signals.prometheus[source][query] = promAnswer(value(name), now);
        }
        else if (name.startsWith(exports.ALERTS)) {
            const made = alertsAnswerOf(value(name), now);
            signals.alertmanager ??= {};
            signals.alertmanager[name.slice(exports.ALERTS.length)] = made.answer;
            created ??= made.created;
        }
    }
    return { signals, ...(created === undefined ? {} : { created }) };
}
//# sourceMappingURL=signal-classes.js.map
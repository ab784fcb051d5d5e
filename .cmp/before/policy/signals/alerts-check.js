"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_ALERTS_TEXT = void 0;
exports.alertText = alertText;
exports.checkAlerts = checkAlerts;
const matcher_1 = require("./matcher");
const placeholder_text_1 = require("./placeholder-text");
const signal_facts_1 = require("../facts/signal-facts");
const source_kind_1 = require("./source-kind");
const signal_violation_1 = require("./signal-violation");
const silenced_since_1 = require("./silenced-since");
const dead_man_1 = require("./dead-man");
/** Room the alert list gets in a reason (Steadybit shows the whole decision message in the run view). */
exports.MAX_ALERTS_TEXT = 400;
/**
 * Whether the alert fires as the rule counts it: not resolved when read, not inhibited unless
 * asked, and not silenced unless asked, where only a silence that began before the run started
 * hides it (silenced-since.ts). A counted alert that is silenced says why it still counts.
 */
function counts(check, alert, readAtMs, answer, since) {
    if (alert.endsAt !== undefined && Date.parse(alert.endsAt) <= readAtMs)
        return { counts: false };
    if (!check.includeInhibited && (alert.status?.inhibitedBy?.length ?? 0) > 0)
        return { counts: false };
    if (check.includeSilenced || (alert.status?.silencedBy?.length ?? 0) === 0)
        return { counts: true };
    const verdict = (0, silenced_since_1.silencedSince)(alert, answer, since);
    return verdict.hidden ? { counts: false } : { counts: true, note: verdict.why };
}
/** `HighErrorRate{namespace="prod",severity="critical"} since 2026-01-05T09:58:00Z`. */
function alertText(alert) {
    const { alertname, ...rest } = alert.labels;
    const labels = Object.keys(rest)
        .sort()
        .map((k) => `${k}=${JSON.stringify(rest[k])}`)
        .join(',');
    return `${(0, signal_violation_1.clip)(`${alertname ?? '(no alertname)'}{${labels}}`, 160)}${alert.startsAt ? ` since ${alert.startsAt}` : ''}`;
}
const matchersText = (ms) => `{${ms.map(matcher_1.matcherText).join(', ')}}`;
/**
 * Pure: the firing alerts of the source that match the rule for each of the run's environments,
 * from the signal facts gathered before the decision. A source that could not answer cannot decide
 * (or is said and let through with onUnavailable: allow); facts that were never gathered cannot decide.
 * What was read for each query goes with what was found, pass or deny (explanations). `since`:
 * when the run started (its execution's `created`): a silence that began after it hides nothing.
 */
function checkAlerts(check, signals, runs, now, since) {
    const source = (0, source_kind_1.sourceText)('alertmanager', check.source);
    const answer = (0, signal_facts_1.own)(signals?.alertmanager, check.source);
    const out = [];
    const reads = [];
    const asked = new Set();
    for (const run of runs) {
        const resolved = (0, matcher_1.resolveMatchers)(check.matchers, run);
        if ('missing' in resolved) {
            out.push({
                reason: `cannot decide: the alert matchers need {{${resolved.missing}}} but ${(0, placeholder_text_1.missingValueText)(resolved.missing, run)}`,
                status: 'undecidable',
            });
            continue;
        }
        const query = matchersText(resolved);
        if (asked.has(query))
            continue;
        asked.add(query);
        const read = { source, query, result: '', readAt: answer?.readAt };
        reads.push(read);
        if (answer === undefined) {
            read.result = 'not read';
            out.push({
                reason: `cannot decide: the alerts of ${source} were not read (no signal facts for it)`,
                status: 'undecidable',
                signal: read,
            });
            continue;
        }
        if ('error' in answer) {
            read.result = `error: ${answer.error}`;
            const what = `the alerts of ${source}`;
            const found = check.deadMan
                ? (0, dead_man_1.deadManFinding)(check.deadMan, { kind: 'alertmanager', source: check.source }, source, `could not be read (${answer.error})`, signals, read, now)
                : (0, signal_violation_1.unavailable)(what, answer.error, check.onUnavailable, read);
            if (found)
                out.push(found);
            continue;
        }
        const readAtMs = answer.readAt === undefined ? now.getTime() : Date.parse(answer.readAt);
        const firing = [];
        for (const alert of answer.alerts) {
            if (!(0, matcher_1.matchesLabels)(resolved, alert.labels))
                continue;
            const counted = counts(check, alert, readAtMs, answer, since);
            if (counted.counts)
                firing.push({ alert, note: counted.note });
        }
        read.result = `${firing.length} matching alert${firing.length === 1 ? '' : 's'} of ${answer.alerts.length}`;
        if (firing.length === 0)
            continue;
        const names = [...new Set(firing.map(({ alert }) => alert.labels.alertname ?? '(no alertname)'))];
        const texts = firing.map(({ alert, note }) => `${alertText(alert)}${note ? ` (${note})` : ''}`);
        out.push({
            reason: `${firing.length} alert${firing.length === 1 ? '' : 's'} matching ${query} firing in ${source}${answer.readAt ? ` (read ${answer.readAt})` : ''}: ${(0, signal_violation_1.listCapped)(texts, exports.MAX_ALERTS_TEXT)}`,
            value: (0, signal_violation_1.clip)(names.join(', '), 200),
            signal: read,
        });
    }
    return { found: out, read: reads };
}
//# sourceMappingURL=alerts-check.js.map
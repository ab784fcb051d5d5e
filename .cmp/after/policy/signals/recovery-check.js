"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RECOVERY_SPEC_SCHEMA = void 0;
exports.heldQueryText = heldQueryText;
exports.compileRecoverySpec = compileRecoverySpec;
exports.checkRecovery = checkRecovery;
const deny_when_1 = require("./deny-when");
const placeholder_text_1 = require("./placeholder-text");
const filled_per_run_1 = require("./filled-per-run");
const prom_query_1 = require("./prom-query");
const sample_value_1 = require("../../syntax/sample-value");
const duration_1 = require("../../syntax/duration");
const human_duration_1 = require("../../syntax/human-duration");
const signal_facts_1 = require("../facts/signal-facts");
const signal_violation_1 = require("./signal-violation");
const source_kind_1 = require("./source-kind");
exports.RECOVERY_SPEC_SCHEMA = {
    type: 'object',
    additionalProperties: false,
    required: ['query', 'recoveredWhen'],
    properties: {
        query: {
            type: 'string',
            minLength: 1,
            description: 'PromQL instant vector; placeholders inside double-quoted label values.',
        },
        recoveredWhen: {
            type: 'string',
            description: 'Recovered when every sample compares true, e.g. "< 0.01"; no sample is not recovered.',
        },
        for: {
            type: 'string',
            pattern: duration_1.DURATION_WITH_UNITS_PATTERN,
            syntax: 'duration',
            description: 'How long it must have stayed recovered (Prometheus history, sampled 30 times), e.g. 5m; at most 1d.',
        },
        source: {
            type: 'string',
            pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
            syntax: 'sourceName',
            description: `A Prometheus source of the deployment (default "${source_kind_1.DEFAULT_SOURCE}").`,
        },
    },
};
/** The longest `for`: a subquery over more would be heavy on Prometheus for every preflight. */
const MAX_HOLD_MS = 86_400_000;
/**
 * A hold is looked at in this many steps, at least STEP_MIN_S and at most STEP_MAX_S apart: every
 * sample of a series scraped every STEP_MAX_S or less is the latest at one step at least, so no
 * scraped relapse is missed (docs/decisions/0022-recovery-from-prometheus-history.md).
 */
const STEPS = 30;
const STEP_MIN_S = 5;
const STEP_MAX_S = 15;
const NOT = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' };
/**
 * The query of `for`, in Prometheus' own clock so the gate's clock never mixes with it: seconds
 * since the last step (of the hold, sampled every `stepS`) at which the query was not recovered or
 * had no data (`absent`). No sample: recovered at every step of the hold (docs/decisions/0022-recovery-from-prometheus-history.md).
 */
function heldQueryText(query, recoveredWhen, holdMs, stepS) {
    const bad = `((${query}) ${NOT[recoveredWhen.op]} ${recoveredWhen.text.split(' ')[1]}) or absent(${query})`;
    return `time() - max_over_time(timestamp(${bad})[${Math.round(holdMs / 1000)}s:${stepS}s])`;
}
function compileRecoverySpec(spec) {
    const query = (0, prom_query_1.compilePromQuery)(spec.query);
    if (typeof query === 'string')
        return { message: query, path: ['query'] };
    const recoveredWhen = (0, deny_when_1.parseDenyWhen)(spec.recoveredWhen);
    if (typeof recoveredWhen === 'string')
        return { message: recoveredWhen.replace(/^denyWhen/, 'recoveredWhen'), path: ['recoveredWhen'] };
    const source = spec.source ?? source_kind_1.DEFAULT_SOURCE;
    const check = { source, query, recoveredWhen };
    const needs = [{ kind: 'prometheus', source, query: spec.query }];
    if (spec.for !== undefined) {
        const holdMs = (0, duration_1.parseDuration)(spec.for);
        if (holdMs === undefined || holdMs < 1000 || holdMs > MAX_HOLD_MS)
            return { message: `for must be at least 1s and at most 1d, got "${spec.for}"`, path: ['for'] };
        const stepS = Math.min(STEP_MAX_S, Math.max(STEP_MIN_S, Math.round(holdMs / 1000 / STEPS)));
        const text = heldQueryText(spec.query, recoveredWhen, holdMs, stepS);
        const held = (0, prom_query_1.compilePromQuery)(text);
        if (typeof held === 'string')
            return { message: held, path: ['query'] };
        check.held = { query: held, holdMs, stepS };
        needs.push({ kind: 'prometheus', source, query: text });
    }
    return { check, needs, targetKeys: [...new Set((0, placeholder_text_1.targetKeysOf)(query.text))] };
}
const sampleText = (s) => {
    const labels = Object.keys(s.metric)
        .sort()
        .map((k) => `${k}=${JSON.stringify(s.metric[k])}`)
        .join(',');
    return `${labels === '' ? '' : `{${(0, signal_violation_1.clip)(labels, 120)}} `}${s.value[1]}`;
};
const cannot = (reason, signal) => ({
    reason: `cannot decide: ${reason}`,
    status: 'undecidable',
    signal,
});
/** The answer's samples, or why there are none to judge (every failure is "cannot decide": unavailable signals fail closed). */
function samplesOf(answer, what, read) {
    if (answer === undefined) {
        read.result = 'not read';
        return cannot(`${what} was not run (no signal facts for it)`, read);
    }
    if ('error' in answer) {
        read.result = `error: ${answer.error}`;
        return cannot(`${what} ${answer.badQuery ? 'was refused' : 'could not be read'} (${answer.error})`, read);
    }
    if (answer.resultType !== 'vector') {
        read.result = `${answer.resultType} result`;
        return cannot(`${what} returned a ${answer.resultType}, not an instant vector`, read);
    }
    const odd = answer.result.find((s) => (0, sample_value_1.sampleValue)(s.value[1]) === undefined);
    if (odd)
        return cannot(`${what} returned a value that is not a number: ${(0, signal_violation_1.clip)(sampleText(odd), 200)}`, read);
    const numbers = answer.result.filter((s) => !Number.isNaN((0, sample_value_1.sampleValue)(s.value[1])));
    read.result = numbers.length === 0 ? 'no samples' : (0, signal_violation_1.listCapped)(numbers.map(sampleText), 300);
    return numbers;
}
/**
 * Pure: whether the query shows the run's targets recovered, for each of `runs` (the values the
 * cool-down's scope fills in). Not recovered: a sample that does not compare true with
 * `recoveredWhen`, or (with `for`) a step of the hold at which it did not, or the run ended less
 * than the hold ago (`endedAtMs`). No sample, an error or a facts gap cannot decide.
 */
function checkRecovery(check, signals, runs, endedAtMs, now) {
    const source = (0, source_kind_1.sourceText)('prometheus', check.source);
    const answers = (0, signal_facts_1.own)(signals?.prometheus, check.source);
    const out = [];
    const reads = [];
    const when = check.recoveredWhen.text;
    for (const filled of (0, filled_per_run_1.filledPerRun)(runs, (run) => (0, prom_query_1.resolvePromQuery)(check.query, run), 'the query needs')) {
        if ('reason' in filled) {
            out.push(filled);
            continue;
        }
        const { text: query, run } = filled;
        const what = `query ${(0, signal_violation_1.clip)(query, 200)} on ${source}`;
        const answer = (0, signal_facts_1.own)(answers, query);
        const read = { source, query, result: '', readAt: answer?.readAt };
        reads.push(read);
        const samples = samplesOf(answer, what, read);
        if (!Array.isArray(samples)) {
            out.push(samples);
            continue;
        }
        if (samples.length === 0) {
            out.push(cannot(`${what} returned no samples, so it cannot show the targets recovered (${when})`, read));
            continue;
        }
        const bad = samples.filter((s) => !(0, deny_when_1.trips)(check.recoveredWhen, (0, sample_value_1.sampleValue)(s.value[1])));
        if (bad.length > 0) {
            out.push({
                reason: `${what} returned ${(0, signal_violation_1.listCapped)(bad.map(sampleText), 300)}, not yet ${when}`,
                value: (0, signal_violation_1.clip)(bad.map((s) => s.value[1]).join(', '), 200),
                signal: read,
            });
            continue;
        }
        if (check.held)
            out.push(...heldFor(check, check.held, answers, run, endedAtMs, now, reads, what));
    }
    return { found: out, read: reads };
}
/** With `for`: how long the query has been recovered (Prometheus' history, and no longer than since the run ended). */
function heldFor(check, held, answers, run, endedAtMs, now, reads, what) {
    const resolved = (0, prom_query_1.resolvePromQuery)(held.query, run);
    if ('missing' in resolved)
        return []; // the same placeholders as the query: said above
    const answer = (0, signal_facts_1.own)(answers, resolved.text);
    const read = {
        source: (0, source_kind_1.sourceText)('prometheus', check.source),
        query: resolved.text,
        result: '',
        readAt: answer?.readAt,
    };
    reads.push(read);
    const ages = samplesOf(answer, `the hold query of ${what}`, read);
    if (!Array.isArray(ages))
        return [ages];
    // Seconds since the last step that was not recovered; good from the next step on.
    const sinceBadMs = ages.length === 0
        ? held.holdMs
        : Math.max(0, (Math.min(...ages.map((s) => Number(s.value[1]))) - held.stepS) * 1000);
    const backForMs = Math.min(sinceBadMs, held.holdMs, Math.max(0, now.getTime() - endedAtMs));
    const remainingMs = held.holdMs - backForMs;
    if (remainingMs <= 0)
        return [];
    const since = new Date(now.getTime() - backForMs).toISOString();
    return [
        {
            reason: `${what} is back ${check.recoveredWhen.text} since ${since}, not yet for ${(0, human_duration_1.humanDuration)(held.holdMs)}: ${(0, human_duration_1.humanDuration)(remainingMs)} remains`,
            value: (0, human_duration_1.humanDuration)(remainingMs),
            signal: read,
        },
    ];
}
//# sourceMappingURL=recovery-check.js.map
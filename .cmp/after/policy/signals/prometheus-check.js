"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_SAMPLES_TEXT = void 0;
exports.checkPrometheus = checkPrometheus;
const deny_when_1 = require("./deny-when");
const filled_per_run_1 = require("./filled-per-run");
const prom_query_1 = require("./prom-query");
const sample_value_1 = require("../../syntax/sample-value");
const signal_facts_1 = require("../facts/signal-facts");
const source_kind_1 = require("./source-kind");
const signal_violation_1 = require("./signal-violation");
const dead_man_1 = require("./dead-man");
exports.MAX_SAMPLES_TEXT = 300;
/** `{job="api"} 0.031`: a sample as the reason lists it. */
function sampleText(s) {
    const labels = Object.keys(s.metric)
        .sort()
        .map((k) => `${k}=${JSON.stringify(s.metric[k])}`)
        .join(',');
    return `${labels === '' ? '' : `{${(0, signal_violation_1.clip)(labels, 120)}} `}${s.value[1]}`;
}
/** The samples against the rule: which trip it, and what an empty result or NaN-only result means. */
function judgeSamples(check, samples, what) {
    const result = samples.length === 0 ? 'no samples' : (0, signal_violation_1.listCapped)(samples.map(sampleText), exports.MAX_SAMPLES_TEXT);
    const odd = samples.find((s) => (0, sample_value_1.sampleValue)(s.value[1]) === undefined);
    if (odd)
        return {
            result,
            violation: {
                reason: `cannot decide: ${what} returned a value that is not a number: ${(0, signal_violation_1.clip)(sampleText(odd), 200)}`,
                status: 'undecidable',
            },
        };
    const numbers = samples.filter((s) => !Number.isNaN((0, sample_value_1.sampleValue)(s.value[1])));
    if (numbers.length === 0) {
        if (check.deadMan)
            return { result, silent: `returned ${samples.length === 0 ? 'no samples' : 'only NaN'}` };
        if (check.onEmpty === 'allow')
            return { result };
        return {
            result,
            violation: {
                reason: `cannot decide: ${what} returned ${samples.length === 0 ? 'no samples' : 'only NaN'}${check.denyWhen ? ` to compare with ${check.denyWhen.text}` : ''} (onEmpty: deny)`,
                status: 'undecidable',
            },
        };
    }
    const hits = check.denyWhen
        ? numbers.filter((s) => (0, deny_when_1.trips)(check.denyWhen, (0, sample_value_1.sampleValue)(s.value[1])))
        : numbers;
    if (hits.length === 0)
        return { result };
    const cmp = check.denyWhen ? ` ${check.denyWhen.text}` : '';
    return {
        result,
        violation: {
            reason: `${what} returned ${(0, signal_violation_1.listCapped)(hits.map(sampleText), exports.MAX_SAMPLES_TEXT)}${cmp}`,
            value: (0, signal_violation_1.clip)(hits.map((s) => s.value[1]).join(', '), 200),
        },
    };
}
/** A dead man's finding for the query, silent as `silence` says (dead-man.ts). */
const silentFinding = (check, deadMan, query, what, silence, signals, read, now) => (0, dead_man_1.deadManFinding)(deadMan, { kind: 'prometheus', source: check.source, query }, what, silence, signals, read, now);
/**
 * Pure: the rule's query for each of the run's environments, judged from the signal facts gathered
 * before the decision. A query Prometheus refused, a range vector or a string result cannot decide;
 * a source that could not answer cannot decide unless the policy says onUnavailable: allow.
 * What was read for each query goes with what was found, pass or deny (explanations).
 */
function checkPrometheus(check, signals, runs, now) {
    const source = (0, source_kind_1.sourceText)('prometheus', check.source);
    const answers = (0, signal_facts_1.own)(signals?.prometheus, check.source);
    const out = [];
    const reads = [];
    const lead = check.reason ? `${check.reason}: ` : '';
    for (const filled of (0, filled_per_run_1.filledPerRun)(runs, (run) => (0, prom_query_1.resolvePromQuery)(check.query, run), 'the query needs')) {
        if ('reason' in filled) {
            out.push(filled);
            continue;
        }
        const query = filled.text;
        const answer = (0, signal_facts_1.own)(answers, query);
        const what = `query ${(0, signal_violation_1.clip)(query, 200)} on ${source}`;
        const read = { source, query, result: '', readAt: answer?.readAt };
        reads.push(read);
        if (answer === undefined) {
            read.result = 'not read';
            out.push({
                reason: `cannot decide: ${what} was not run (no signal facts for it)`,
                status: 'undecidable',
                signal: read,
            });
        }
        else if ('error' in answer) {
            read.result = `error: ${answer.error}`;
            const found = answer.badQuery
                ? {
                    reason: `cannot decide: Prometheus refused ${what} (${answer.error})`,
                    status: 'undecidable',
                    signal: read,
                }
                : check.deadMan
                    ? silentFinding(check, check.deadMan, query, what, `could not be read (${answer.error})`, signals, read, now)
                    : (0, signal_violation_1.unavailable)(what, answer.error, check.onUnavailable, read);
            if (found)
                out.push(found);
        }
        else if (answer.resultType === 'vector' || (answer.resultType === 'scalar' && check.denyWhen)) {
            const samples = answer.resultType === 'vector' ? answer.result : [{ metric: {}, value: answer.result }];
            const judged = judgeSamples(check, samples, what);
            read.result = judged.result;
            if (judged.silent !== undefined && check.deadMan) {
                // Not the rule's `reason`: that says what a value means, and a silent query has none.
                const found = silentFinding(check, check.deadMan, query, what, judged.silent, signals, read, now);
                if (found)
                    out.push(found);
            }
            else if (judged.violation)
                out.push({
                    ...judged.violation,
                    reason: `${lead}${judged.violation.reason}${answer.readAt ? ` (read ${answer.readAt})` : ''}`,
                    signal: read,
                });
        }
        else {
            const why = answer.resultType === 'scalar'
                ? 'a scalar: give denyWhen to compare it'
                : `a ${answer.resultType === 'matrix' ? 'range vector (matrix): ask for an instant vector' : 'string'}`;
            read.result = `${answer.resultType} result`;
            out.push({ reason: `cannot decide: ${what} returned ${why}`, status: 'undecidable', signal: read });
        }
    }
    return { found: out, read: reads };
}
//# sourceMappingURL=prometheus-check.js.map
"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkJson = checkJson;
const json_logic_js_1 = __importDefault(require("json-logic-js"));
const json_path_text_1 = require("./json-path-text");
const filled_per_run_1 = require("./filled-per-run");
const signal_facts_1 = require("../facts/signal-facts");
const source_kind_1 = require("./source-kind");
const signal_violation_1 = require("./signal-violation");
const text = (value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
/** Judges one answer; a throwing expression cannot decide. */
function judge(check, data, what) {
    let verdict;
    let detail = '';
    try {
        verdict = json_logic_js_1.default.truthy(check.denyWhen(data));
        if (verdict && check.detail)
            detail = (0, signal_violation_1.clip)(text(check.detail(data)), 300);
    }
    catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return {
            result: 'error in denyWhen',
            violation: { reason: `cannot decide: denyWhen failed on the answer of ${what} (${why})`, status: 'undecidable' },
        };
    }
    const result = `HTTP ${data.status}, denyWhen ${verdict ? 'true' : 'false'}`;
    if (!verdict)
        return { result };
    const violation = { reason: `${check.reason}: ${what}${detail === '' ? '' : ` answered ${detail}`}` };
    if (detail !== '')
        violation.value = detail;
    return { result, violation };
}
/**
 * Pure: the rule's path for each of the run's value sets (environments, attacked services), judged
 * from the answers gathered before the decision. An endpoint that could not answer cannot decide
 * unless the policy says onUnavailable: allow; a path never read cannot decide.
 */
function checkJson(check, signals, runs) {
    const source = (0, source_kind_1.sourceText)('json', check.source);
    const answers = (0, signal_facts_1.own)(signals?.json, check.source);
    const out = [];
    const reads = [];
    for (const filled of (0, filled_per_run_1.filledPerRun)(runs, (run) => (0, json_path_text_1.fillJsonPath)(check.path, run), 'the path needs')) {
        if ('reason' in filled) {
            out.push(filled);
            continue;
        }
        const path = filled.text;
        const answer = (0, signal_facts_1.own)(answers, path);
        const what = `GET ${(0, signal_violation_1.clip)(path, 200)} on ${source}${answer?.readAt ? ` (read ${answer.readAt})` : ''}`;
        const read = { source, query: path, result: '', readAt: answer?.readAt };
        reads.push(read);
        if (answer === undefined) {
            read.result = 'not read';
            out.push({
                reason: `cannot decide: GET ${(0, signal_violation_1.clip)(path, 200)} on ${source} was not asked (no signal facts for it)`,
                status: 'undecidable',
                signal: read,
            });
        }
        else if ('error' in answer) {
            read.result = `error: ${answer.error}`;
            out.push((0, signal_violation_1.unavailable)(`GET ${(0, signal_violation_1.clip)(path, 200)} on ${source}`, answer.error, check.onUnavailable, read));
        }
        else {
            const judged = judge(check, answer, what);
            read.result = judged.result;
            if (judged.violation)
                out.push({ ...judged.violation, signal: read });
        }
    }
    return { found: out, read: reads };
}
//# sourceMappingURL=json-check.js.map
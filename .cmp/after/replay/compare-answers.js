"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CHANGE_KINDS = void 0;
exports.summary = summary;
exports.policyChanges = policyChanges;
exports.sameFileUnder = sameFileUnder;
exports.compareAnswers = compareAnswers;
const json_object_1 = require("../common/json-object");
const node_path_1 = require("node:path");
const same_json_1 = require("./same-json");
/** In the order reports list them: loosened guardrails first. */
exports.CHANGE_KINDS = [
    'newly-allowed',
    'newly-denied',
    'message',
    'modifications',
    'results',
];
function summary(answer) {
    const body = (0, json_object_1.isJsonObject)(answer.body) ? answer.body : {};
    return {
        status: answer.status,
        message: typeof body.message === 'string' ? body.message : '',
        modifications: Array.isArray(body.modifications) ? body.modifications : [],
    };
}
const comparable = (r) => JSON.stringify([r.result, r.mode, r.reasons, r.message ?? null, r.exception ?? null]);
/** Policies whose result (kind, mode, reasons, message or exception) differs, in the order first seen. */
function policyChanges(before, after) {
    const old = new Map(before.map((r) => [r.policy, r]));
    const now = new Map(after.map((r) => [r.policy, r]));
    const out = [];
    for (const name of new Set([...old.keys(), ...now.keys()])) {
        const a = old.get(name);
        const b = now.get(name);
        if (a && b && comparable(a) === comparable(b))
            continue;
        // Skipped and not visited mean the same: the policy did not apply to the run.
        const kind = (r) => (r === undefined || r.result === 'skipped' ? 'absent' : r.result);
        if (kind(a) === 'absent' && kind(b) === 'absent')
            continue;
        out.push({ policy: name, before: kind(a), after: kind(b) });
    }
    return out;
}
/** `/srv/policies/a/b.yaml` (recorded) and `policies/a/b.yaml` (replayed from `policies`): the same file. */
function sameFileUnder(dir, recorded, replayed) {
    const rel = (0, node_path_1.relative)(dir, replayed);
    if (rel === '' || rel.startsWith('..') || (0, node_path_1.isAbsolute)(rel))
        return false;
    return recorded === rel || recorded.endsWith(`${node_path_1.sep}${rel}`);
}
/**
 * The recorded answer against the replayed one. Same means byte for byte: the JSON text of status
 * and body (explanation included) and of the per-policy results (sameJson finds it without writing
 * them out), except for the texts `alias` names.
 */
function compareAnswers(recorded, replayed, alias) {
    const renamed = alias && alias.proposed !== alias.recorded
        ? (text) => text.split(alias.proposed).join(alias.recorded)
        : undefined;
    const dir = alias?.policyDir;
    const sameText = (a, b) => (renamed !== undefined && a === renamed(b)) || (dir !== undefined && sameFileUnder(dir, a, b));
    const answerSame = (0, same_json_1.sameJson)(recorded.answer, replayed.answer, sameText);
    if (answerSame && (0, same_json_1.sameJson)(recorded.results, replayed.results, sameText))
        return { same: true, exact: true };
    const same = (text) => (renamed ? renamed(text) : text);
    const policies = policyChanges(recorded.results, JSON.parse(same(JSON.stringify(replayed.results))));
    if (answerSame && policies.length === 0)
        return { same: true, exact: false };
    const before = summary(recorded.answer);
    const after = summary(JSON.parse(same(JSON.stringify(replayed.answer))));
    let kind;
    const allowed = (s) => s.status >= 200 && s.status < 300;
    if (!allowed(before) && allowed(after))
        kind = 'newly-allowed';
    else if (allowed(before) && !allowed(after))
        kind = 'newly-denied';
    else if (before.message !== after.message)
        kind = 'message';
    else if (JSON.stringify(before.modifications) !== JSON.stringify(after.modifications))
        kind = 'modifications';
    else
        kind = 'results';
    return { same: false, kind, before, after, policies };
}
//# sourceMappingURL=compare-answers.js.map
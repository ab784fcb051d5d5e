"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PLAYGROUND_DECISION_ID = void 0;
exports.decidePlayground = decidePlayground;
const preflight_answer_1 = require("../policy/core/preflight-answer");
const validate_payload_1 = require("../payload/validate-payload");
const decide_1 = require("../policy/engine/decide");
const quiet_facts_1 = require("../policy/facts/quiet-facts");
const read_facts_1 = require("../policy/facts/read-facts");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const load_policy_texts_1 = require("../policy/loading/load-policy-texts");
const iso_time_1 = require("../policy/time/iso-time");
/**
 * The decision id of every playground decision: the nil UUID. It shows in the message, so it stays
 * the same while typing; it has the length of the service's ids (random UUIDs), so a long message is
 * cut exactly where the service would cut it.
 */
exports.PLAYGROUND_DECISION_ID = '00000000-0000-0000-0000-000000000000';
const error = (part, message, path) => ({
    part,
    message,
    severity: 'error',
    ...(path === undefined ? {} : { path }),
});
/** The input problems that stop a decision, of every part at once (fix them all in one go). */
function readParts(input) {
    const problems = [];
    const now = (0, iso_time_1.parseIsoTime)(input.now);
    if (now === undefined)
        problems.push(error('now', `must be an ISO 8601 time such as 2026-03-02T10:00:00Z, got "${input.now}"`));
    const payload = (0, validate_payload_1.validatePreflightPayload)(input.payload);
    if (!payload.ok)
        problems.push(...payload.errors.map((e) => error('payload', e.message, e.path)));
    const facts = (0, read_facts_1.readFacts)(input.facts);
    if (!facts.ok)
        problems.push(...facts.errors.map((e) => error('facts', e.message, e.path)));
    const loaded = (0, load_policy_texts_1.loadPolicyTexts)(input.policies, now ?? new Date(0));
    const loadProblems = loaded.ok ? loaded.warnings : loaded.problems;
    problems.push(...loadProblems.map(({ file, line, col, path, message, severity }) => ({
        part: 'policies',
        file,
        line,
        col,
        path,
        message,
        severity,
    })));
    return { now, payload, facts, loaded, problems };
}
/**
 * The answer the service would give to this input, decided by the engine itself (loadPolicyTexts,
 * the built-in emergency stop as EMERGENCY_STOP_POLICY=enforce, decide with the facts given, else a
 * fresh service's): status, message, modifications and the full explanation. Pure; runs in the page.
 */
function decidePlayground(input) {
    const { now, payload, facts, loaded, problems } = readParts(input);
    if (now === undefined || !payload.ok || !facts.ok || !loaded.ok) {
        const payloadBad = problems.some((p) => p.part === 'payload');
        const message = loaded.ok
            ? 'no decision: fix the input first (the service would refuse this request)'
            : 'no decision: the policy set does not load (the service would not start with it)';
        return {
            ok: false,
            status: payloadBad ? 400 : undefined,
            message,
            problems: problems.filter((p) => p.severity === 'error' || !loaded.ok),
        };
    }
    const bundle = (0, built_in_policies_1.withBuiltIns)(loaded.bundle, (0, built_in_policies_1.builtInPolicies)('enforce'));
    const decision = (0, decide_1.decide)(bundle, payload.payload, (0, quiet_facts_1.givenFacts)(bundle.needs, facts.facts), now, {
        decisionId: exports.PLAYGROUND_DECISION_ID,
        fullScan: true,
    });
    return { ok: true, decision, warnings: problems, ...(0, preflight_answer_1.preflightAnswer)(decision, false) };
}
//# sourceMappingURL=decide-playground.js.map
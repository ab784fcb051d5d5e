"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.notifiedRun = notifiedRun;
exports.decisionNotifications = decisionNotifications;
const target_redaction_1 = require("../redaction/target-redaction");
const run_link_1 = require("./run-link");
/** The run as a person finds it in Steadybit. */
function notifiedRun(payload, facts, runUrl, decisionId) {
    const e = payload.execution;
    const known = e.environment === undefined ? undefined : facts.environments?.[e.environment];
    const run = {
        executionId: e.id,
        experimentKey: e.experimentKey,
        experimentName: e.name,
        team: e.teamKey,
        environment: e.environment,
        environmentName: known && 'name' in known ? known.name : undefined,
        environmentNameUnknown: known && 'unknown' in known ? known.unknown : undefined,
        startedBy: e.createdBy?.name ?? e.createdBy?.username,
    };
    return { ...run, url: (0, run_link_1.runLink)(runUrl, run, decisionId) };
}
function notifiedPolicy(r, text) {
    return {
        policy: r.policy,
        mode: r.mode,
        result: r.result,
        reasons: r.reasons.map(text),
        ...(r.exception ? { exception: r.exception } : {}),
    };
}
const runName = (run) => `Run ${run.executionId ?? '(no id)'}${run.experimentKey ? ` of ${run.experimentKey}` : ''}`;
const names = (results) => results.map((r) => r.policy).join(', ');
/**
 * The notifications one decision gives: `denied` for a denial; for an allowed run `waived` when an
 * exception waived a policy and `warned` when a policy in warn mode found something (both can
 * come from one run). A clean allow and audit-mode findings give none (audit mode only logs).
 */
function decisionNotifications(decided, options) {
    const { decision, payload, facts } = decided;
    const text = (0, target_redaction_1.targetRedactor)(payload, options.redaction) ?? ((t) => t);
    const run = notifiedRun(payload, facts, options.runUrl, decision.id);
    const base = { time: decision.evaluatedAt, decisionId: decision.id, run, revision: decision.revision };
    const make = (kind, title, results, extra = {}) => ({
        kind,
        title,
        message: text(decision.message),
        policies: results.map((r) => notifiedPolicy(r, text)),
        ...base,
        ...extra,
    });
    if (!decision.allowed) {
        const denying = decision.results.filter((r) => r.result === 'deny');
        const title = denying.length > 0 ? `${runName(run)} denied by ${names(denying)}` : `${runName(run)} denied`;
        return [make('denied', title, denying, { exceptionHelp: options.exceptionHelp })];
    }
    const out = [];
    const waived = decision.results.filter((r) => r.exception !== undefined);
    if (waived.length > 0)
        out.push(make('waived', `${runName(run)} allowed: ${names(waived)} waived by an exception`, waived));
    const warned = decision.results.filter((r) => r.result === 'warn');
    if (warned.length > 0)
        out.push(make('warned', `${runName(run)} allowed with warnings from ${names(warned)}`, warned));
    return out;
}
//# sourceMappingURL=decision-notifications.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runningFacts = runningFacts;
exports.judgeRunningRun = judgeRunningRun;
const decide_1 = require("../policy/engine/decide");
const found = (r) => r.result === 'deny' || r.result === 'warn' || r.result === 'audit';
function findingOf(r, onCannotJudge) {
    const cannotJudge = (r.findings ?? []).length > 0 && (r.findings ?? []).every((f) => f.undecidable === true);
    const enforced = r.mode === 'enforce' && r.result === 'deny';
    const action = enforced && (!cannotJudge || onCannotJudge === 'stop') ? 'stop' : 'report';
    const deadMan = (r.findings ?? []).some((f) => f.signal?.silent !== undefined);
    return {
        policy: r.policy,
        mode: r.mode,
        reason: r.message ?? r.reasons.join('; '),
        action,
        cannotJudge,
        ...(deadMan ? { deadMan: true } : {}),
    };
}
/** Every silent signal the decision's deadMan rules read, each once. */
function silentOf(decision) {
    const out = new Map();
    for (const r of decision.results)
        for (const read of r.signals ?? [])
            if (read.silent)
                out.set(JSON.stringify([read.silent.kind, read.silent.source, read.silent.query]), read.silent);
    return [...out.values()];
}
/**
 * The facts as judged while running: `signals.silentSince` is always there (none given: no signal
 * was silent before now). Replay judges the guard's stops on these too (redecide.ts).
 */
function runningFacts(facts) {
    if (facts.signals?.silentSince !== undefined)
        return facts;
    return { ...facts, signals: { ...facts.signals, silentSince: [] } };
}
/**
 * Each guarded policy's `onCannotJudge`, once per view (a bundle is never changed): built again per
 * run, it cost a tick over 1,000 runs against 1,000 guarded policies a million map entries, a
 * fifth of its CPU (issue 48, measured on Node 26.12.1).
 */
const onCannotJudge = new WeakMap();
function onCannotJudgeOf(view) {
    let settings = onCannotJudge.get(view);
    if (!settings) {
        settings = new Map(view.policies.map((p) => [p.name, p.whileRunning?.onCannotJudge ?? 'report']));
        onCannotJudge.set(view, settings);
    }
    return settings;
}
/**
 * Judges a run in progress on the guarded part of a policy set (`view`: guardView(bundle)) with
 * the facts of now: the same pure `decide` as at the door, then each policy that no longer holds
 * is a stop (enforce), or only reported (warn/audit, or cannot judge with `onCannotJudge: report`).
 * `facts.signals.silentSince`: since when deadMan signals are silent (the guard keeps it per run;
 * none given, none was silent before now). Pure: the service's guard, `eval --while-running` and suites give the same answer.
 */
function judgeRunningRun(view, payload, facts, now, decisionId) {
    const decision = (0, decide_1.decide)(view, payload, runningFacts(facts), now, { decisionId });
    const settings = onCannotJudgeOf(view);
    const findings = decision.results.filter(found).map((r) => findingOf(r, settings.get(r.policy) ?? 'report'));
    findings.sort((a, b) => Number(b.action === 'stop') - Number(a.action === 'stop'));
    return { stop: findings.some((f) => f.action === 'stop'), findings, decision, silent: silentOf(decision) };
}
//# sourceMappingURL=judge-running-run.js.map
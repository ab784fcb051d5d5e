"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.judgeWithoutStore = judgeWithoutStore;
function findingOf(r, onCannotJudge, why) {
    const found = r.result === 'pass' ? '' : `; its rules found: ${r.message ?? r.reasons.join('; ')}`;
    return {
        policy: r.policy,
        mode: r.mode,
        reason: `the state store cannot be reached (${why}), so whether the run is still in progress cannot be checked${found}`,
        action: r.mode === 'enforce' && onCannotJudge === 'stop' ? 'stop' : 'report',
        cannotJudge: true,
    };
}
/**
 * A run judged from this replica's own list while the state store cannot be read (docs/guard.md,
 * "The state store away"): every guarded policy that applies to the run (its scope includes it, no
 * exception waives it) cannot judge, since whether the run still goes on is in the store, so each
 * follows its `onCannotJudge`: `stop` (enforce) cancels the run, `report` (the default) reports it.
 * `judgement` is the usual re-judgement (judge-running-run.ts): which policies apply, and what their
 * rules found, said in the reason. Pure.
 */
function judgeWithoutStore(view, judgement, why) {
    const settings = new Map(view.policies.map((p) => [p.name, p.whileRunning?.onCannotJudge ?? 'report']));
    const findings = judgement.decision.results
        .filter((r) => r.result !== 'skipped')
        .map((r) => findingOf(r, settings.get(r.policy) ?? 'report', why));
    findings.sort((a, b) => Number(b.action === 'stop') - Number(a.action === 'stop'));
    const stop = findings.some((f) => f.action === 'stop');
    const decision = stop
        ? { ...judgement.decision, allowed: false, message: `[${findings[0].policy}] ${findings[0].reason}` }
        : judgement.decision;
    return { stop, findings, decision, silent: judgement.silent };
}
//# sourceMappingURL=judge-without-store.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROBE_NAME_PREFIX = void 0;
exports.probeNonce = probeNonce;
exports.probeMark = probeMark;
exports.answerProbe = answerProbe;
/**
 * `preflight-gate connect --probe` proves the wiring with a run of its own: an experiment named
 * `preflight-gate probe <nonce>` holding wait steps only. The gate decides it as any run, then
 * denies it whatever the policies say, with a message that names the nonce: Steadybit records that
 * message as the run's reason, so the CLI can tell this gate answered (and signed answers were
 * verified) and the probe never starts. Denying is the safe direction: a run that only looks like a
 * probe is stopped, never let through.
 */
exports.PROBE_NAME_PREFIX = 'preflight-gate probe ';
const PROBE_NAME = /^preflight-gate probe ([0-9a-f]{16})$/;
/** The probe's nonce when the run is a connect probe: its name, and nothing but wait steps. */
function probeNonce(execution) {
    const nonce = PROBE_NAME.exec(execution.name ?? '')?.[1];
    const steps = execution.steps ?? [];
    if (nonce === undefined || steps.length === 0)
        return undefined;
    return steps.every((s) => s.actionId === undefined && s.actionKind === undefined) ? nonce : undefined;
}
/** The text by which the CLI recognises that this gate decided probe `nonce`. */
function probeMark(nonce) {
    return `${exports.PROBE_NAME_PREFIX}${nonce} reached preflight-gate`;
}
/** A probe's decision: always a denial that names the nonce and what the policies decided. */
function answerProbe(execution, decision) {
    const nonce = probeNonce(execution);
    if (nonce === undefined)
        return decision;
    const verdict = decision.allowed ? 'allow' : 'deny';
    const message = `${probeMark(nonce)}: decided under policy revision ${decision.revision} (decision ${decision.id}); a probe never runs, so it is denied (the policies would ${verdict} it: ${decision.message})`;
    return { ...decision, allowed: false, message, modifications: [] };
}
//# sourceMappingURL=connect-probe.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.judgementText = judgementText;
exports.judgementJson = judgementJson;
/** `eval --while-running` in text: stopped or not, by which policy and why, then what is only reported. */
function judgementText(j) {
    const lines = [j.stop ? 'STOPPED while running' : 'KEEPS RUNNING'];
    for (const f of j.findings) {
        const what = f.action === 'stop'
            ? 'stops it'
            : f.cannotJudge
                ? 'cannot judge (reported, the run goes on)'
                : `would stop it (mode ${f.mode}: reported only)`;
        lines.push(`  ${f.policy}: ${what}: ${f.reason}`);
    }
    if (j.findings.length === 0)
        lines.push('  every guarded policy still holds');
    return `${lines.join('\n')}\n`;
}
/** `eval --while-running --format json`: the judgement as data. */
function judgementJson(j, explain) {
    return { whileRunning: true, stopped: j.stop, findings: j.findings, ...(explain ? { explanation: j.decision } : {}) };
}
//# sourceMappingURL=judgement-text.js.map
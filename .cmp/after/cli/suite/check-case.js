"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkCase = checkCase;
exports.checkJudgement = checkJudgement;
const list = (names) => (names.length === 0 ? '(none)' : names.join(', '));
function why(r) {
    if (!r)
        return 'not evaluated';
    return r.reasons.length > 0 ? `${r.result}: ${r.reasons.join('; ')}` : r.result;
}
/** An exact-set expectation: names every missing and every unexpected policy, with what it did. */
function checkSet(label, verb, kind, expected, decision) {
    const actual = decision.results.filter((r) => r.result === kind).map((r) => r.policy);
    const missing = expected.filter((n) => !actual.includes(n));
    const extra = actual.filter((n) => !expected.includes(n));
    if (missing.length === 0 && extra.length === 0)
        return [];
    const byName = new Map(decision.results.map((r) => [r.policy, r]));
    const out = [`${label}: expected ${list(expected)}, got ${list(actual)}`];
    if (missing.length > 0 && actual.length === 0)
        out.push(`  no policy ${verb} at all`);
    for (const n of missing)
        out.push(`  ${n} did not ${kind} (${why(byName.get(n))})`);
    for (const n of extra)
        out.push(`  ${n} ${verb} unexpectedly (${why(byName.get(n))})`);
    return out;
}
function sameValue(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
}
function matches(e, m) {
    if (e.type !== m.type || e.propertyKey !== m.propertyKey)
        return false;
    if (e.valuePattern !== undefined)
        return typeof m.value === 'string' && new RegExp(e.valuePattern).test(m.value);
    return sameValue(e.value, m.value);
}
const showMod = (m) => {
    const v = 'valuePattern' in m && m.valuePattern !== undefined ? `~/${m.valuePattern}/` : JSON.stringify(m.value);
    return `${m.type} ${m.propertyKey}=${v}`;
};
/** Expected modifications as a multiset: each expected one consumes one actual one. */
function checkModifications(expected, actual) {
    const left = [...actual];
    const missing = [];
    for (const e of expected) {
        const i = left.findIndex((m) => matches(e, m));
        if (i < 0)
            missing.push(e);
        else
            left.splice(i, 1);
    }
    if (missing.length === 0 && left.length === 0)
        return [];
    return [
        `modifications: expected ${expected.length}, got ${actual.length}`,
        ...missing.map((m) => `  missing: ${showMod(m)}`),
        ...left.map((m) => `  unexpected: ${showMod(m)}`),
    ];
}
/** Every expectation that does not hold, spelled out; empty when the case passes. */
function checkCase(expect, decision) {
    const failures = [];
    const got = decision.allowed ? 'allow' : 'deny';
    if (expect.decision === undefined)
        failures.push('expect.decision is missing: a case judged at the door expects allow or deny (stopped is for whileRunning cases)');
    else if (expect.decision !== got)
        failures.push(`decision: expected ${expect.decision}, got ${got} ("${decision.message}")`);
    failures.push(...checkSet('denied', 'denied', 'deny', expect.denied ?? [], decision));
    failures.push(...checkSet('warned', 'warned', 'warn', expect.warned ?? [], decision));
    if (expect.audited)
        failures.push(...checkSet('audited', 'audited', 'audit', expect.audited, decision));
    for (const [policy, result] of Object.entries(expect.results ?? {})) {
        const actual = decision.results.find((r) => r.policy === policy);
        if (actual?.result !== result)
            failures.push(`results.${policy}: expected ${result}, got ${why(actual)}`);
    }
    if (expect.message !== undefined && !new RegExp(expect.message).test(decision.message)) {
        failures.push(`message: expected to match /${expect.message}/, got "${decision.message}"`);
    }
    if (expect.modifications)
        failures.push(...checkModifications(expect.modifications, decision.modifications));
    return failures;
}
/** A `whileRunning` case: stopped or not, and by exactly which policies (docs/guard.md). */
function checkJudgement(expect, judged) {
    if (expect.stopped === undefined)
        return ['expect.stopped is missing: a whileRunning case expects stopped: true or false'];
    const failures = [];
    const stoppers = judged.findings.filter((f) => f.action === 'stop');
    const said = judged.findings.map((f) => `${f.policy}: ${f.reason}`).join('; ') || 'every guarded policy holds';
    if (expect.stopped !== judged.stop)
        failures.push(`stopped: expected ${expect.stopped}, got ${judged.stop} (${said})`);
    if (expect.stoppedBy) {
        const actual = stoppers.map((f) => f.policy);
        if (!sameValue([...expect.stoppedBy].sort(), [...actual].sort()))
            failures.push(`stoppedBy: expected ${list(expect.stoppedBy)}, got ${list(actual)}`);
    }
    return failures;
}
//# sourceMappingURL=check-case.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditLevelOf = auditLevelOf;
exports.outcomeOf = outcomeOf;
exports.auditRecord = auditRecord;
const target_redaction_1 = require("../redaction/target-redaction");
const field = (o, k, t) => typeof o[k] === t ? o[k] : undefined;
/** Execution facts read leniently from a body that may have failed validation. */
function executionFacts(body) {
    const e = typeof body === 'object' && body !== null ? body.execution : undefined;
    if (typeof e !== 'object' || e === null)
        return {};
    const ex = e;
    const overrides = typeof ex.overrides === 'object' && ex.overrides !== null ? ex.overrides : {};
    return {
        executionId: field(ex, 'id', 'number'),
        experimentKey: field(ex, 'experimentKey', 'string'),
        team: field(ex, 'teamKey', 'string'),
        environment: field(ex, 'environment', 'string'),
        environmentOverride: field(overrides, 'environment', 'string'),
    };
}
/** info: a clean allow; warn: a denial, or an allow with warn/audit findings; error: no decision. */
function auditLevelOf(outcome, decision) {
    if (outcome === 'error')
        return 'error';
    if (outcome === 'deny')
        return 'warn';
    const findings = decision?.results.some((r) => r.result === 'warn' || r.result === 'audit') ?? false;
    return findings ? 'warn' : 'info';
}
function outcomeOf(status, decision) {
    if (decision && status === 200 && decision.allowed)
        return 'allow';
    if (decision && status === 403 && !decision.allowed)
        return 'deny';
    return 'error';
}
/**
 * Whether a result goes into `policies` with its reasons: it found something, or an exception
 * waived it. A pass is only named (its reason, "passed: <rules>", says nothing the policy file does
 * not); a policy out of scope is only counted: which of them a decision visits depends on the
 * policy index, and `?explain=true` or `preflight-gate eval --explain` list them with reasons.
 */
const found = (r) => r.result === 'deny' || r.result === 'warn' || r.result === 'audit' || r.exception !== undefined;
function auditEntry(r) {
    const entry = { policy: r.policy, mode: r.mode, result: r.result, reasons: r.reasons };
    if (r.findings?.length)
        entry.findings = r.findings;
    if (r.exception)
        entry.exception = r.exception;
    return entry;
}
/** The audit line of one answer, with target values masked as configured. */
function auditRecord(facts, redaction) {
    const d = facts.decision;
    const outcome = outcomeOf(facts.status, d);
    const record = {
        log: 'audit',
        level: auditLevelOf(outcome, d),
        decisionId: facts.decisionId,
        time: d?.evaluatedAt ?? facts.time.toISOString(),
        decision: outcome,
        status: facts.status,
        ...executionFacts(facts.body),
        message: outcome === 'error' ? (facts.errorMessage ?? `answered ${facts.status} without a decision`) : (d?.message ?? ''),
        policies: [],
        passed: [],
        notApplied: 0,
        modifications: d?.modifications ?? [],
        conflicts: d?.conflicts ?? [],
        revision: d?.revision ?? facts.revision,
        durationMs: Math.round(facts.durationMs * 1000) / 1000,
        redaction: redaction.kind === 'keys' ? redaction.keys : redaction.kind,
    };
    if (d) {
        for (const r of d.results) {
            if (found(r))
                record.policies.push(auditEntry(r));
            else if (r.result === 'pass')
                record.passed.push(r.policy);
        }
        record.notApplied = d.results.length + (d.outOfScope ?? 0) - record.policies.length - record.passed.length;
    }
    const text = (0, target_redaction_1.targetRedactor)(facts.body, redaction);
    return text ? redactRecord(record, text) : record;
}
/** The list with `f` applied to each item; the same list when `f` changed none (no copy for lines with nothing to mask). */
function mapChanged(items, f) {
    let out;
    for (let i = 0; i < items.length; i++) {
        const item = f(items[i]);
        if (item !== items[i])
            (out ??= items.slice())[i] = item;
    }
    return out ?? items;
}
/** What a signal rule read, masked: its query has `{{target.<attr>}}` placeholders filled with target values. */
function redactSignal(read, text) {
    if (read === undefined)
        return undefined;
    const query = text(read.query);
    const result = text(read.result);
    return query === read.query && result === read.result ? read : { ...read, query, result };
}
/** The finding with its free text masked; the same object when there was nothing to mask. */
function redactFinding(f, text) {
    const reason = text(f.reason);
    const target = f.target === undefined ? undefined : text(f.target);
    const value = f.value === undefined ? undefined : text(f.value);
    const signal = redactSignal(f.signal, text);
    if (reason === f.reason && target === f.target && value === f.value && signal === f.signal)
        return f;
    return {
        ...f,
        reason,
        ...(target !== undefined ? { target } : {}),
        ...(value !== undefined ? { value } : {}),
        ...(signal !== undefined ? { signal } : {}),
    };
}
/**
 * Masks target values where they can appear: the free text (message, reasons, findings' target and
 * value) and the values of modifications. Names the operator chose (policies, rules, steps) and
 * the execution's own fields are kept as they are.
 *
 * The record and its `policies` entries were built for this line and are changed in place; what
 * they share with the decision (reasons, findings, modifications) is copied before any change.
 */
function redactRecord(record, text) {
    record.message = text(record.message);
    for (const p of record.policies) {
        p.reasons = mapChanged(p.reasons, text);
        if (p.findings)
            p.findings = mapChanged(p.findings, (f) => redactFinding(f, text));
    }
    if (record.modifications.length > 0)
        record.modifications = record.modifications.map((m) => ({ ...m, value: (0, target_redaction_1.redactDeep)(m.value, text) }));
    if (record.conflicts.length > 0) {
        record.conflicts = record.conflicts.map((c) => ({
            ...c,
            kept: { ...c.kept, value: (0, target_redaction_1.redactDeep)(c.kept.value, text) },
            dropped: { ...c.dropped, value: (0, target_redaction_1.redactDeep)(c.dropped.value, text) },
        }));
    }
    return record;
}
//# sourceMappingURL=audit-record.js.map
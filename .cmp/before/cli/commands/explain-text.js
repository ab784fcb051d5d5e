"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.decisionText = decisionText;
const pad = (s, n) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
/**
 * A decision for a person: the answer Steadybit gets, then (explain) every policy's result and reasons,
 * what each signal rule read, and what the signal sources answered (`signalLines`, from the facts).
 */
function decisionText(decision, explain, signalLines = []) {
    const status = decision.allowed ? 200 : 403;
    const lines = [
        `${decision.allowed ? 'ALLOW' : 'DENY'} (HTTP ${status})`,
        `message: ${decision.message}`,
        `revision: ${decision.revision}  decision: ${decision.id}  evaluated at: ${decision.evaluatedAt}`,
    ];
    if (decision.allowed) {
        lines.push(decision.modifications.length === 0 ? 'modifications: (none)' : 'modifications:');
        for (const m of decision.modifications)
            lines.push(`  ${m.type} ${m.propertyKey} = ${JSON.stringify(m.value)}`);
    }
    if (!explain)
        return `${lines.join('\n')}\n`;
    lines.push(`policies (${decision.results.length}):`);
    for (const r of decision.results) {
        lines.push(`  ${pad(r.result, 7)} ${r.policy} (${r.mode}, priority ${r.priority}) ${r.source.file}:${r.source.line}`);
        for (const reason of r.reasons)
            lines.push(`          - ${reason}`);
        if (r.message !== undefined && r.message !== r.reasons.join('; '))
            lines.push(`          message: ${r.message}`);
        const reads = r.signals ?? (r.findings ?? []).flatMap((f) => (f.signal ? [f.signal] : []));
        for (const read of reads)
            lines.push(`          read: ${read.source} ${read.query} -> ${read.result} (${read.readAt ? `read ${read.readAt}` : 'read at an unrecorded time'})`);
    }
    for (const c of decision.conflicts) {
        lines.push(`conflict: ${c.propertyKey} set by ${c.kept.policy} (kept ${JSON.stringify(c.kept.value)}) and ${c.dropped.policy} (dropped ${JSON.stringify(c.dropped.value)})`);
    }
    if (signalLines.length > 0)
        lines.push(`signals read (${signalLines.length}):`, ...signalLines.map((l) => `  ${l}`));
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=explain-text.js.map
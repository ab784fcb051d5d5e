"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.titleOf = void 0;
exports.messageFacts = messageFacts;
exports.policyLines = policyLines;
exports.cut = cut;
/** At most this many reasons per policy and policies per message: a chat message stays readable. */
const MAX_POLICIES = 5;
const MAX_REASONS = 3;
function environmentText(n) {
    const run = n.run;
    if (!run?.environment)
        return undefined;
    if (run.environmentName && run.environmentName !== run.environment)
        return `${run.environmentName} (${run.environment})`;
    if (run.environmentNameUnknown)
        return `${run.environment} (Steadybit name unknown: ${run.environmentNameUnknown})`;
    return run.environment;
}
/** The labelled facts of a message, in the order a person looks for them; empty ones left out. */
function messageFacts(delivery) {
    const n = delivery.notification;
    const run = n.run;
    const facts = [
        [
            'Experiment',
            run?.experimentKey && (run.experimentName ? `${run.experimentKey} (${run.experimentName})` : run.experimentKey),
        ],
        ['Run', run?.executionId],
        ['Team', run?.team],
        ['Environment', environmentText(n)],
        ['Started by', run?.startedBy],
        [n.kind === 'stopped' ? 'Stopped by' : 'By', n.by],
        ['Decision', n.decisionId],
        ['Policy revision', n.revision],
        [
            'Repeated',
            delivery.count > 1 ? `${delivery.count} times from ${delivery.firstTime} to ${delivery.lastTime}` : undefined,
        ],
    ];
    return facts
        .filter((f) => f[1] !== undefined && f[1] !== '')
        .map(([label, value]) => ({ label, value: String(value) }));
}
/** `prod-freeze (enforce): reason; reason`, one line per policy, at most a few. */
function policyLines(policies) {
    const lines = policies.slice(0, MAX_POLICIES).map((p) => {
        const reasons = p.reasons.slice(0, MAX_REASONS).join('; ') +
            (p.reasons.length > MAX_REASONS ? `; and ${p.reasons.length - MAX_REASONS} more` : '');
        // The engine's reasons of a waived policy name the exception already; said here only if not.
        const waived = p.exception && !p.reasons.some((r) => r.includes(`"${p.exception}"`))
            ? `, waived by exception ${p.exception}`
            : '';
        return `${p.policy} (${p.mode}${waived})${reasons ? `: ${reasons}` : ''}`;
    });
    if (policies.length > MAX_POLICIES)
        lines.push(`and ${policies.length - MAX_POLICIES} more policies`);
    return lines;
}
/** The title with the count of collapsed duplicates: `... denied by prod-freeze (50 times)`. */
const titleOf = (delivery) => delivery.notification.title + (delivery.count > 1 ? ` (${delivery.count} times)` : '');
exports.titleOf = titleOf;
/** Cuts a text to `max` characters (chat APIs refuse longer fields), saying so. */
function cut(text, max) {
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
//# sourceMappingURL=message-parts.js.map
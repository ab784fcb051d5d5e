"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.USAGE_FORMATS = void 0;
exports.formatUsageText = formatUsageText;
exports.formatUsageMarkdown = formatUsageMarkdown;
exports.formatUsage = formatUsage;
exports.USAGE_FORMATS = ['text', 'json', 'markdown'];
const usesText = (e) => (e.maxUses === undefined ? `${e.uses}` : `${e.uses} of ${e.maxUses}`);
/** What a reviewer should do about it: remove (expired, used up), ask whether still needed (unused), or nothing. */
function verdict(e, days) {
    if (e.expired)
        return 'expired: remove it';
    if (e.maxUses !== undefined && e.uses >= e.maxUses)
        return 'used up: remove it';
    if (e.unused)
        return `still needed? no run used it in ${days} days`;
    return 'in use';
}
const span = (r) => r.decisionsRead === 0
    ? 'no decisions read'
    : `${r.decisionsRead} decisions read, ${r.firstDecision} to ${r.lastDecision}`;
function formatUsageText(r) {
    const lines = [`Exceptions of the policy set at ${r.now} (${span(r)}):`];
    if (r.exceptions.length === 0)
        lines.push('  the set holds no exceptions');
    for (const e of r.exceptions) {
        lines.push(`  ${e.name} (waives ${e.policy}, owner ${e.owner}, until ${e.expires}): used ${usesText(e)}, last ${e.lastUsed ?? 'never'}${e.inDeniedRuns > 0 ? `, also in ${e.inDeniedRuns} denied run(s)` : ''}; ${verdict(e, r.unusedDays)}`);
    }
    for (const x of r.notInSet)
        lines.push(`  ${x.name}: named by ${x.uses} allowed run(s), last ${x.lastUsed ?? 'never'}, but no longer in the set`);
    const unused = r.exceptions.filter((e) => e.unused && !e.expired).map((e) => e.name);
    lines.push(unused.length === 0
        ? `Every live exception was used in the last ${r.unusedDays} days.`
        : `Not used in the last ${r.unusedDays} days (still needed?): ${unused.join(', ')}`);
    return `${lines.join('\n')}\n`;
}
const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
function formatUsageMarkdown(r) {
    const out = [
        '### Exceptions: use and expiry',
        '',
        `At ${r.now}; ${span(r)}. "Still needed?": no allowed run waived in the last ${r.unusedDays} days.`,
        '',
        '| Exception | Waives | Owner | Expires | Uses | Last used | |',
        '| --- | --- | --- | --- | --- | --- | --- |',
        ...r.exceptions.map((e) => `| \`${e.name}\` | \`${e.policy}\` | ${cell(e.owner)} | ${e.expires} | ${usesText(e)} | ${e.lastUsed ?? 'never'} | ${verdict(e, r.unusedDays)} |`),
    ];
    if (r.notInSet.length > 0)
        out.push('', `No longer in the set: ${r.notInSet.map((x) => `\`${x.name}\` (${x.uses} use${x.uses === 1 ? '' : 's'})`).join(', ')}`);
    return `${out.join('\n')}\n`;
}
function formatUsage(r, format) {
    if (format === 'json')
        return `${JSON.stringify(r, null, 2)}\n`;
    return format === 'markdown' ? formatUsageMarkdown(r) : formatUsageText(r);
}
//# sourceMappingURL=format-exception-usage.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AUDIT_LEVELS = void 0;
exports.parseAuditConfig = parseAuditConfig;
exports.AUDIT_LEVELS = ['info', 'warn', 'error'];
function destination(raw) {
    const value = (raw ?? '').trim();
    if (value === '' || value === 'stdout')
        return { kind: 'stdout' };
    if (value === 'off')
        return { kind: 'off' };
    return { kind: 'file', path: value };
}
/**
 * Steadybit's attribute keys are dotted names (`k8s.namespace`, `container.name`): a list entry
 * without a dot is a typo of true/false (`TRUE`, `ture`) that would turn redaction almost off.
 */
const ATTRIBUTE_KEY = /^[^\s,.]+(\.[^\s,.]+)+$/;
function redaction(raw) {
    const value = (raw ?? '').trim();
    if (value === '' || value.toLowerCase() === 'true')
        return { kind: 'all' };
    if (value.toLowerCase() === 'false')
        return { kind: 'none' };
    const keys = value.split(',').map((k) => k.trim());
    return keys.every((k) => ATTRIBUTE_KEY.test(k)) ? { kind: 'keys', keys } : undefined;
}
/** AUDIT_LOG, AUDIT_LOG_LEVEL and AUDIT_REDACT_ATTRIBUTES -> AuditConfig, or the message naming what to fix. */
function parseAuditConfig(env) {
    const level = (env.AUDIT_LOG_LEVEL ?? 'info').trim();
    if (!exports.AUDIT_LEVELS.includes(level)) {
        return {
            ok: false,
            message: `AUDIT_LOG_LEVEL must be one of ${exports.AUDIT_LEVELS.join(', ')}, got "${env.AUDIT_LOG_LEVEL}"`,
        };
    }
    const redact = redaction(env.AUDIT_REDACT_ATTRIBUTES);
    if (!redact) {
        return {
            ok: false,
            message: `AUDIT_REDACT_ATTRIBUTES must be true, false or a comma-separated list of dotted attribute keys such as k8s.namespace,container.name (no empty entries), got "${env.AUDIT_REDACT_ATTRIBUTES}"`,
        };
    }
    return { ok: true, config: { destination: destination(env.AUDIT_LOG), level, redact } };
}
//# sourceMappingURL=audit-config.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.disabledAuditLog = void 0;
exports.auditLogTo = auditLogTo;
exports.createAuditLog = createAuditLog;
const node_fs_1 = require("node:fs");
const env_values_1 = require("../common/env-values");
const audit_config_1 = require("./audit-config");
const severity = (level) => audit_config_1.AUDIT_LEVELS.indexOf(level);
function auditLogTo(sink, level, redaction, close = () => undefined) {
    const accepts = (recordLevel) => severity(recordLevel) >= severity(level);
    return {
        redaction,
        accepts,
        write(record) {
            if (accepts(record.level))
                sink(`${JSON.stringify(record)}\n`);
        },
        close,
    };
}
/** Writes nothing and accepts no level, so no record is built (AUDIT_LOG=off, and the default of apps built in tests). */
function offAuditLog(redaction) {
    return { redaction, accepts: () => false, write: () => undefined, close: () => undefined };
}
exports.disabledAuditLog = offAuditLog({ kind: 'all' });
/** The audit log AUDIT_LOG asks for. Throws with the path and the reason when the file cannot be opened. */
function createAuditLog(config) {
    const { destination, level, redact } = config;
    if (destination.kind === 'off')
        return offAuditLog(redact);
    if (destination.kind === 'stdout')
        return auditLogTo((line) => {
            process.stdout.write(line);
        }, level, redact);
    let fd;
    try {
        fd = (0, node_fs_1.openSync)(destination.path, 'a');
    }
    catch (err) {
        throw new env_values_1.ConfigError(`AUDIT_LOG: cannot open "${destination.path}" for appending (${err.message}); give a writable file, "stdout" or "off"`);
    }
    // An answer forced out at the very end of a shutdown may still be recorded after close(): dropped, never a throw.
    let open = true;
    const sink = (line) => {
        if (open)
            (0, node_fs_1.writeSync)(fd, line);
    };
    return auditLogTo(sink, level, redact, () => {
        if (open) {
            open = false;
            (0, node_fs_1.closeSync)(fd);
        }
    });
}
//# sourceMappingURL=audit-log.js.map
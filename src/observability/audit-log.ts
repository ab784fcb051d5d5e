import { closeSync, openSync, writeSync } from 'node:fs';
import { ConfigError } from '../common/env-values';
import { AUDIT_LEVELS, type AuditConfig, type AuditLevel } from './audit-config';
import type { AttributeRedaction } from '../redaction/attribute-redaction';
import type { AuditRecord } from './audit-record';

/**
 * The audit trail: one JSON line per answer to POST /preflight, kept apart from the operational
 * log (`"log": "audit"` on stdout, or a file of its own) so it can be shipped elsewhere.
 */
export interface AuditLog {
  readonly redaction: AttributeRedaction;
  /** Whether a record of this level would be written: callers build (and redact) a record only then. */
  accepts(level: AuditLevel): boolean;
  /** Writes the record unless its level is below the configured one. */
  write(record: AuditRecord): void;
  close(): void;
}

const severity = (level: AuditLevel) => AUDIT_LEVELS.indexOf(level);

/** A line sink: synchronous, so no audit line is lost when the process exits right after answering. */
export type LineSink = (line: string) => void;

export function auditLogTo(
  sink: LineSink,
  level: AuditLevel,
  redaction: AttributeRedaction,
  close: () => void = () => undefined,
): AuditLog {
  const accepts = (recordLevel: AuditLevel) => severity(recordLevel) >= severity(level);
  return {
    redaction,
    accepts,
    write(record) {
      if (accepts(record.level)) sink(`${JSON.stringify(record)}\n`);
    },
    close,
  };
}

/** Writes nothing and accepts no level, so no record is built (AUDIT_LOG=off, and the default of apps built in tests). */
function offAuditLog(redaction: AttributeRedaction): AuditLog {
  return { redaction, accepts: () => false, write: () => undefined, close: () => undefined };
}

export const disabledAuditLog: AuditLog = offAuditLog({ kind: 'all' });

/** The audit log AUDIT_LOG asks for. Throws with the path and the reason when the file cannot be opened. */
export function createAuditLog(config: AuditConfig): AuditLog {
  const { destination, level, redact } = config;
  if (destination.kind === 'off') return offAuditLog(redact);
  if (destination.kind === 'stdout')
    return auditLogTo(
      (line) => {
        process.stdout.write(line);
      },
      level,
      redact,
    );
  let fd: number;
  try {
    fd = openSync(destination.path, 'a');
  } catch (err) {
    throw new ConfigError(
      `AUDIT_LOG: cannot open "${destination.path}" for appending (${(err as Error).message}); give a writable file, "stdout" or "off"`,
    );
  }
  // An answer forced out at the very end of a shutdown may still be recorded after close(): dropped, never a throw.
  let open = true;
  const sink: LineSink = (line) => {
    if (open) writeSync(fd, line);
  };
  return auditLogTo(sink, level, redact, () => {
    if (open) {
      open = false;
      closeSync(fd);
    }
  });
}

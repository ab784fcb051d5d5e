import type { AuditLevel } from '../../src/observability/audit-config';
import type { AttributeRedaction } from '../../src/redaction/attribute-redaction';
import { auditLogTo, type AuditLog } from '../../src/observability/audit-log';
import type { AuditRecord } from '../../src/observability/audit-record';
import type { Metrics } from '../../src/observability/metrics';

/** An audit log that keeps its lines in memory, parsed back from the JSON it writes. */
export function memoryAuditLog(
  level: AuditLevel = 'info',
  redaction: AttributeRedaction = { kind: 'all' },
): { audit: AuditLog; lines: string[]; records: () => AuditRecord[] } {
  const lines: string[] = [];
  const audit = auditLogTo(
    (line) => {
      lines.push(line);
    },
    level,
    redaction,
  );
  return { audit, lines, records: () => lines.map((l) => JSON.parse(l) as AuditRecord) };
}

/** The value of every series of one metric, keyed by its labels (`decision=allow`). */
export async function seriesOf(metrics: Metrics, name: string): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const out: Record<string, number> = {};
  for (const v of values) {
    const key = Object.entries(v.labels)
      .map(([k, x]) => `${k}=${x}`)
      .sort()
      .join(',');
    out[key] = (out[key] ?? 0) + v.value;
  }
  return out;
}

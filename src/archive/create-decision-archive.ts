import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { ArchiveSettings } from './archive-config';
import { decisionArchive, type DecisionArchive } from './decision-archive';
import { prepareArchiveDir } from './prepare-archive-dir';
import { RotatingFile } from './rotating-file';

/**
 * The archive DECISION_ARCHIVE asks for: a rotating, gzipping file. A timer closes a file that is
 * older than DECISION_ARCHIVE_MAX_AGE even when no decision comes (it does not keep the process up).
 * Its directory is created now if missing; one that cannot be written throws a ConfigError.
 */
export function createDecisionArchive(settings: ArchiveSettings, deps: { logger: Logger; metrics: Metrics; clock?: () => Date }): DecisionArchive {
  prepareArchiveDir(settings.path);
  const file = new RotatingFile({
    ...settings,
    clock: deps.clock ?? (() => new Date()),
    onError: (what, err) => deps.logger.error(`decision archive: cannot ${what}`, { error: err instanceof Error ? err.message : String(err) }),
  });
  const timer = setInterval(() => {
    file.rotateIfOld().catch((err: unknown) => deps.logger.error('decision archive: cannot close an old file', { error: err instanceof Error ? err.message : String(err) }));
  }, Math.min(settings.maxAgeMs, 60_000));
  timer.unref();
  const archive = decisionArchive({ writer: file, queueBytes: settings.queueBytes, maskAttributes: settings.maskAttributes, metrics: deps.metrics, logger: deps.logger });
  return {
    record: archive.record,
    close: async () => {
      clearInterval(timer);
      await archive.close();
    },
  };
}

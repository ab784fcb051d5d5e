import type { Logger } from '../common/logger';
import type { Metrics } from '../observability/metrics';
import type { ArchiveSettings, S3Archive } from './archive-config';
import { stemOf } from './archive-files';
import { decisionArchive, type DecisionArchive, type LineWriter } from './decision-archive';
import { prepareArchiveDir } from './prepare-archive-dir';
import { RotatingFile } from './rotating-file';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './s3-client';
import { spooledWriter } from './spooled-writer';
import { dirname } from 'node:path';
import { SpoolUploader } from './spool-uploader';

export interface ArchiveDeps {
  logger: Logger;
  metrics: Metrics;
  clock?: () => Date;
  /** For S3: the client (tests pass one); default: the AWS SDK's, with its standard credential chain. */
  s3Client?: ConstructorParameters<typeof SpoolUploader>[0]['client'];
}

/**
 * The AWS SDK's client (s3-client.ts), made at the first upload: the SDK is about a third of what
 * the service would load at start, and only an S3 archive uses it (docs/decisions/0030).
 */
function lazyS3Client(settings: S3Settings): Pick<S3Client, 'send'> {
  let client: Promise<S3Client> | undefined;
  const send = async (...args: Parameters<S3Client['send']>) => {
    client ??= import('./s3-client').then((m) => m.createS3Client(settings, { maxAttempts: 1 }));
    return (await client).send(...args);
  };
  return { send: send as S3Client['send'] };
}

/**
 * The archive DECISION_ARCHIVE asks for: a rotating, gzipping file, and for `s3://` that file in a
 * local spool whose closed files are uploaded (spooled-writer.ts). A timer closes a file that is
 * older than DECISION_ARCHIVE_MAX_AGE even when no decision comes (it does not keep the process up).
 * Its directory is created now if missing; one that cannot be written throws a ConfigError.
 */
export function createDecisionArchive(
  settings: ArchiveSettings & Partial<S3Archive>,
  deps: ArchiveDeps,
): DecisionArchive {
  prepareArchiveDir(settings.path);
  const logError = (what: string, err: unknown) =>
    deps.logger.error(`decision archive: cannot ${what}`, { error: err instanceof Error ? err.message : String(err) });
  let uploader: SpoolUploader | undefined;
  const file = new RotatingFile({
    ...settings,
    // Files waiting for upload are never pruned: the spool's bound is DECISION_ARCHIVE_SPOOL_MAX_BYTES.
    maxFiles: settings.location ? 0 : settings.maxFiles,
    clock: deps.clock ?? (() => new Date()),
    onError: logError,
    onClosed: () => void uploader?.upload(),
  });
  let writer: LineWriter = { write: (chunk) => file.write(chunk), close: () => file.close() };
  if (settings.location && settings.s3 && settings.spoolMaxBytes !== undefined) {
    uploader = new SpoolUploader({
      dir: dirname(settings.path),
      stem: stemOf(settings.path),
      location: settings.location,
      logger: deps.logger,
      client: deps.s3Client ?? lazyS3Client(settings.s3),
      gzipping: () => file.gzipping(),
      observe: {
        upload: (outcome) => deps.metrics.archiveUploads.inc({ outcome }),
        spoolBytes: (bytes) => deps.metrics.archiveSpoolBytes.set(bytes),
      },
    });
    writer = spooledWriter({
      file,
      uploader,
      maxBytes: settings.spoolMaxBytes,
      location: settings.location,
      spool: dirname(settings.path),
    });
    void uploader.upload(); // What an earlier process left.
  }
  const timer = setInterval(
    () => {
      file.rotateIfOld().catch((err: unknown) => logError('close an old file', err));
    },
    Math.min(settings.maxAgeMs, 60_000),
  );
  timer.unref();
  const archive = decisionArchive({
    writer,
    queueBytes: settings.queueBytes,
    maskAttributes: settings.maskAttributes,
    metrics: deps.metrics,
    logger: deps.logger,
  });
  return {
    record: archive.record,
    close: async (deadlineMs) => {
      clearInterval(timer);
      await archive.close(deadlineMs);
    },
  };
}

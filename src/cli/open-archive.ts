import { s3Settings } from '../archive/archive-config';
import { createS3Client } from '../archive/s3-client';
import { isS3Url, parseS3Url } from '../archive/s3-location';
import { archiveSources, type ArchiveStream } from '../replay/archive-sources';
import { downloadS3Archive } from '../replay/download-s3-archive';
import { BadInputError, readSettings } from '../common/bad-input-error';

/** The streams of a local archive, or of an `s3://bucket/prefix` one fetched into a temporary directory. */
export async function openArchive(
  archive: string,
  env: NodeJS.ProcessEnv,
  since: Date | undefined,
): Promise<{ streams: ArchiveStream[]; remove(): Promise<void> }> {
  if (!isS3Url(archive)) return { streams: archiveSources(archive), remove: async () => undefined };
  const location = readSettings(() => parseS3Url(archive, '--archive'));
  const settings = readSettings(() => s3Settings(env));
  let downloaded: Awaited<ReturnType<typeof downloadS3Archive>>;
  try {
    downloaded = await downloadS3Archive(createS3Client(settings.s3), location, since);
  } catch (err) {
    throw new BadInputError(
      `cannot read the archive ${archive}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} (credentials: the AWS SDK's standard chain; an S3-compatible store: DECISION_ARCHIVE_S3_ENDPOINT)`,
    );
  }
  if (downloaded.files === 0) {
    await downloaded.remove();
    throw new BadInputError(
      `archive ${archive} holds no archive files (*.jsonl, *.jsonl.gz)${since ? ' closed since --since' : ''}`,
    );
  }
  return { streams: archiveSources(downloaded.dir), remove: downloaded.remove };
}

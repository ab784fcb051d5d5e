import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { parseArchiveName, stampOf } from '../archive/archive-files';
import type { S3Location } from '../archive/s3-location';

export interface DownloadedArchive {
  /** A temporary directory holding the archive files, laid out as a DECISION_ARCHIVE directory. */
  dir: string;
  files: number;
  remove(): Promise<void>;
}

/** The archive files directly under the prefix (`<stem>.jsonl[.gz]`, `<stem>-<stamp>.jsonl[.gz]`), by key. */
async function archiveKeys(client: Pick<S3Client, 'send'>, at: S3Location, since: Date | undefined): Promise<string[]> {
  const from = since && stampOf(since);
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: at.bucket, Prefix: at.prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      const name = object.Key?.slice(at.prefix.length) ?? '';
      const parsed = name.includes('/') ? undefined : parseArchiveName(name);
      if (!parsed) continue;
      // A file closed before --since holds only older decisions: not fetched.
      if (from !== undefined && parsed.closedAt !== undefined && parsed.closedAt.slice(0, from.length) < from) continue;
      keys.push(object.Key as string);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/**
 * `replay --archive s3://bucket/prefix`: the archive files an S3 archive uploaded (one per closed
 * file, named after the writer and its closing time), fetched with the AWS SDK into a temporary
 * directory that replay then reads as a directory archive. Files closed before `since` are skipped.
 */
export async function downloadS3Archive(
  client: Pick<S3Client, 'send'>,
  at: S3Location,
  since?: Date,
): Promise<DownloadedArchive> {
  const dir = await mkdtemp(join(tmpdir(), 'preflight-gate-replay-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const keys = await archiveKeys(client, at, since);
    for (const key of keys) {
      const object = await client.send(new GetObjectCommand({ Bucket: at.bucket, Key: key }));
      if (!(object.Body instanceof Readable)) throw new Error(`s3://${at.bucket}/${key}: the answer has no body`);
      await pipeline(object.Body, createWriteStream(join(dir, basename(key)), { flags: 'wx' }));
    }
    return { dir, files: keys.length, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

import { S3Client } from '@aws-sdk/client-s3';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';

/** How to reach the store: AWS S3 by default, or an S3-compatible endpoint (MinIO, Ceph, R2, ...). */
export interface S3Settings {
  /** DECISION_ARCHIVE_S3_ENDPOINT, e.g. `http://minio:9000`; unset: AWS S3 (or the SDK's AWS_ENDPOINT_URL_S3). */
  endpoint?: string;
  /** DECISION_ARCHIVE_S3_REGION; unset: the SDK's AWS_REGION / profile, or `us-east-1` with an endpoint. */
  region?: string;
  /** DECISION_ARCHIVE_S3_PATH_STYLE: `bucket` in the path, not the host name (most S3-compatible stores need it). */
  forcePathStyle: boolean;
}

/**
 * An S3 client with the AWS SDK's standard credential chain (fromNodeProviderChain): environment
 * variables, web identity (EKS IRSA: AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE, and pod identity),
 * SSO and shared config profiles, ECS task roles and the EC2 instance role. The SDK reads those
 * variables and files itself. With a custom endpoint, checksums are sent only where an operation
 * requires them: several S3-compatible stores refuse the SDK's newer default trailing checksums.
 */
export function createS3Client(settings: S3Settings, opts: { maxAttempts?: number } = {}): S3Client {
  return new S3Client({
    credentials: fromNodeProviderChain(),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.region ? { region: settings.region } : settings.endpoint ? { region: 'us-east-1' } : {}),
    ...(settings.endpoint
      ? {
          endpoint: settings.endpoint,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {}),
    // The spool retries with its own backoff (maxAttempts 1); replay keeps the SDK's 3 attempts.
    maxAttempts: opts.maxAttempts ?? 3,
  });
}

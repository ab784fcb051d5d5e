"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createS3Client = createS3Client;
const client_s3_1 = require("@aws-sdk/client-s3");
const credential_providers_1 = require("@aws-sdk/credential-providers");
/**
 * An S3 client with the AWS SDK's standard credential chain (fromNodeProviderChain): environment
 * variables, web identity (EKS IRSA: AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE, and pod identity),
 * SSO and shared config profiles, ECS task roles and the EC2 instance role. The SDK reads those
 * variables and files itself. With a custom endpoint, checksums are sent only where an operation
 * requires them: several S3-compatible stores refuse the SDK's newer default trailing checksums.
 */
function createS3Client(settings, opts = {}) {
    return new client_s3_1.S3Client({
        credentials: (0, credential_providers_1.fromNodeProviderChain)(),
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
//# sourceMappingURL=s3-client.js.map
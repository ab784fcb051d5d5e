"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isS3Url = void 0;
exports.parseS3Url = parseS3Url;
const env_values_1 = require("../common/env-values");
/** S3 bucket names: 3-63 characters, lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const isS3Url = (value) => value.startsWith('s3://');
exports.isS3Url = isS3Url;
/** `s3://bucket/some/prefix` -> `{bucket, prefix: "some/prefix/"}`; a malformed one throws a ConfigError naming `setting`. */
function parseS3Url(raw, setting) {
    const rest = raw.slice('s3://'.length);
    const slash = rest.indexOf('/');
    const bucket = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? '' : rest.slice(slash + 1);
    if (!BUCKET.test(bucket)) {
        throw new env_values_1.ConfigError(`${setting}: "${bucket}" is not an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens), in "${raw}"; write s3://<bucket>/<prefix>`);
    }
    if (/[?#]/.test(path) ||
        path.split('/').some((p, i, all) => p === '' && i < all.length - 1) ||
        /(^|\/)\.\.?(\/|$)/.test(path)) {
        throw new env_values_1.ConfigError(`${setting}: the key prefix "${path}" must be plain path segments (no empty ones, no . or .., no ? or #), in "${raw}"`);
    }
    const trimmed = path.replace(/\/+$/, '');
    return { bucket, prefix: trimmed === '' ? '' : `${trimmed}/` };
}
//# sourceMappingURL=s3-location.js.map
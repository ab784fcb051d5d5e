"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.openArchive = openArchive;
const archive_config_1 = require("../archive/archive-config");
const s3_client_1 = require("../archive/s3-client");
const s3_location_1 = require("../archive/s3-location");
const archive_sources_1 = require("../replay/archive-sources");
const download_s3_archive_1 = require("../replay/download-s3-archive");
const bad_input_error_1 = require("../common/bad-input-error");
/** The streams of a local archive, or of an `s3://bucket/prefix` one fetched into a temporary directory. */
async function openArchive(archive, env, since) {
    if (!(0, s3_location_1.isS3Url)(archive))
        return { streams: (0, archive_sources_1.archiveSources)(archive), remove: async () => undefined };
    const location = (0, bad_input_error_1.readSettings)(() => (0, s3_location_1.parseS3Url)(archive, '--archive'));
    const settings = (0, bad_input_error_1.readSettings)(() => (0, archive_config_1.s3Settings)(env));
    let downloaded;
    try {
        downloaded = await (0, download_s3_archive_1.downloadS3Archive)((0, s3_client_1.createS3Client)(settings.s3), location, since);
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`cannot read the archive ${archive}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} (credentials: the AWS SDK's standard chain; an S3-compatible store: DECISION_ARCHIVE_S3_ENDPOINT)`);
    }
    if (downloaded.files === 0) {
        await downloaded.remove();
        throw new bad_input_error_1.BadInputError(`archive ${archive} holds no archive files (*.jsonl, *.jsonl.gz)${since ? ' closed since --since' : ''}`);
    }
    return { streams: (0, archive_sources_1.archiveSources)(downloaded.dir), remove: downloaded.remove };
}
//# sourceMappingURL=open-archive.js.map
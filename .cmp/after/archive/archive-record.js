"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ARCHIVE_FORMAT = void 0;
/** The format of the archive's lines; replay refuses (and reports) lines of a format it does not know. */
exports.ARCHIVE_FORMAT = 1;
//# sourceMappingURL=archive-record.js.map
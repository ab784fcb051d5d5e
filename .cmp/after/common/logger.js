"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TIME_FIELD = void 0;
exports.createLogger = createLogger;
const winston_1 = __importDefault(require("winston"));
/** The one timestamp field of every log line, service and audit alike: `time`, ISO 8601 UTC (docs/audit-log.md). */
exports.TIME_FIELD = 'time';
const stampTime = winston_1.default.format((info) => {
    info[exports.TIME_FIELD] = new Date().toISOString();
    return info;
});
/** JSON lines on stdout. Secrets are never passed to the logger. */
function createLogger(level = 'info', opts = {}) {
    return winston_1.default.createLogger({
        level,
        silent: opts.silent,
        format: winston_1.default.format.combine(stampTime(), winston_1.default.format.json()),
        defaultMeta: { service: 'preflight-gate' },
        transports: [new winston_1.default.transports.Console()],
    });
}
//# sourceMappingURL=logger.js.map
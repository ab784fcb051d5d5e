"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ENV_SOURCE_KINDS = void 0;
exports.findSource = findSource;
/** The kinds configured by environment variables too (`<KIND>_URL`); `json` sources only in SIGNAL_SOURCES_FILE. */
exports.ENV_SOURCE_KINDS = ['alertmanager', 'prometheus'];
function findSource(config, kind, name) {
    return config.sources.find((s) => s.kind === kind && s.name === name);
}
//# sourceMappingURL=signal-source.js.map
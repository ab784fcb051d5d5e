"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_SOURCE = exports.SOURCE_KINDS = void 0;
exports.sourceText = sourceText;
exports.SOURCE_KINDS = ['alertmanager', 'prometheus', 'json'];
/** The name a policy means when it names no source (`ALERTMANAGER_URL`, `PROMETHEUS_URL`). */
exports.DEFAULT_SOURCE = 'default';
/** `alertmanager "default" (http://127.0.0.1:9093)`: how messages and logs name a source. */
function sourceText(kind, name, url) {
    return `${kind} "${name}"${url ? ` (${url})` : ''}`;
}
//# sourceMappingURL=source-kind.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.buildInfo = buildInfo;
exports.registerBuildInfo = registerBuildInfo;
const prom_client_1 = require("prom-client");
const package_version_1 = require("../common/package-version");
/** `revision` comes from the caller (main reads PREFLIGHT_GATE_REVISION, which the Dockerfile sets); "unknown" when not built from git. */
function buildInfo(revision) {
    return { version: (0, package_version_1.packageVersion)(), revision: revision || 'unknown', nodeVersion: process.version };
}
/** preflight_gate_build_info{version, revision, node_version} 1: join it to any series to see which build answered. */
function registerBuildInfo(registry, info) {
    const gauge = new prom_client_1.Gauge({
        name: 'preflight_gate_build_info',
        help: 'The running build (value 1): package version, source revision, Node.js version.',
        labelNames: ['version', 'revision', 'node_version'],
        registers: [registry],
    });
    gauge.set({ version: info.version, revision: info.revision, node_version: info.nodeVersion }, 1);
}
//# sourceMappingURL=build-info.js.map
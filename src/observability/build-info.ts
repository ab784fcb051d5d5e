import { Gauge, type Registry } from 'prom-client';
import { packageVersion } from '../common/package-version';

/** What this build is: the package version, the source revision (set by the image build), the Node it runs on. */
export interface BuildInfo {
  version: string;
  revision: string;
  nodeVersion: string;
}

/** `revision` comes from the caller (main reads PREFLIGHT_GATE_REVISION, which the Dockerfile sets); "unknown" when not built from git. */
export function buildInfo(revision: string | undefined): BuildInfo {
  return { version: packageVersion(), revision: revision || 'unknown', nodeVersion: process.version };
}

/** preflight_gate_build_info{version, revision, node_version} 1: join it to any series to see which build answered. */
export function registerBuildInfo(registry: Registry, info: BuildInfo): void {
  const gauge = new Gauge({
    name: 'preflight_gate_build_info',
    help: 'The running build (value 1): package version, source revision, Node.js version.',
    labelNames: ['version', 'revision', 'node_version'],
    registers: [registry],
  });
  gauge.set({ version: info.version, revision: info.revision, node_version: info.nodeVersion }, 1);
}

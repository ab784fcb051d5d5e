import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { buildInfo, registerBuildInfo } from '../../src/observability/build-info';
import { packageVersion } from '../../src/common/package-version';
import { ROOT, startServerProcess } from '../helpers/server-process';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('preflight_gate_build_info', () => {
  it('is the package version, the given revision and the running Node, with value 1', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    registerBuildInfo(metrics.registry, buildInfo('0123abc'));
    expect(await metrics.registry.getSingleMetricAsString('preflight_gate_build_info')).toContain(
      `preflight_gate_build_info{version="${VERSION}",revision="0123abc",node_version="${process.version}"} 1`,
    );
  });

  it('says "unknown" for a build without a revision', () => {
    expect(buildInfo(undefined).revision).toBe('unknown');
    expect(buildInfo('').revision).toBe('unknown');
    expect(packageVersion()).toBe(VERSION);
  });

  it('is exported by the running service, with PREFLIGHT_GATE_REVISION', async () => {
    const service = await startServerProcess({
      POLICY_DIR: join(ROOT, 'policies'),
      WEBHOOK_SECRET: 's',
      POLICY_WATCH: 'false',
      PREFLIGHT_GATE_REVISION: 'feedface',
    });
    try {
      const text = await (await fetch(`${service.url}/metrics`)).text();
      expect(text).toContain(
        `preflight_gate_build_info{version="${VERSION}",revision="feedface",node_version="${process.version}"} 1`,
      );
    } finally {
      await service.stop();
    }
  });
});

import { createMetrics } from '../../src/observability/metrics';

/** The counters counted on every request (metrics.ts: countDecision, countVerified), as a scrape reads them. */
const seriesOf = async (text: Promise<string>, name: string) =>
  (await text)
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .sort();

describe('the per-request counters, as a scrape reads them', () => {
  test('preflight_decisions_total: every outcome from 0, each answer once, the same at every scrape', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    expect(await seriesOf(metrics.registry.metrics(), 'preflight_decisions_total')).toEqual([
      'preflight_decisions_total{decision="allow"} 0',
      'preflight_decisions_total{decision="deny"} 0',
      'preflight_decisions_total{decision="error"} 0',
    ]);
    metrics.countDecision('allow');
    metrics.countDecision('deny');
    metrics.countDecision('allow');
    const expected = [
      'preflight_decisions_total{decision="allow"} 2',
      'preflight_decisions_total{decision="deny"} 1',
      'preflight_decisions_total{decision="error"} 0',
    ];
    expect(await seriesOf(metrics.registry.metrics(), 'preflight_decisions_total')).toEqual(expected);
    // A second scrape reads the same counts: a scrape adds nothing.
    expect(await seriesOf(metrics.registry.metrics(), 'preflight_decisions_total')).toEqual(expected);
    expect((await metrics.decisions.get()).values.find((v) => v.labels.decision === 'allow')?.value).toBe(2);
  });

  test('preflight_signature_verified_total: a series per secret fingerprint once it verified a request', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    expect(await seriesOf(metrics.registry.metrics(), 'preflight_signature_verified_total')).toEqual([]);
    metrics.countVerified('sha256:0a1b2c3d');
    metrics.countVerified('sha256:0a1b2c3d');
    metrics.countVerified('sha256:99887766');
    expect(await seriesOf(metrics.registry.metrics(), 'preflight_signature_verified_total')).toEqual([
      'preflight_signature_verified_total{secret="sha256:0a1b2c3d"} 2',
      'preflight_signature_verified_total{secret="sha256:99887766"} 1',
    ]);
  });
});

import type { HttpTargetFigures } from './figures';
import { combineRounds } from './http-rounds';
import { measureTarget, SECRET, type HttpTarget } from './http-stage';
import type { LoadSettings } from './load-run';
import { payloadVariants } from './payload-variants';
import { largeRun } from '../test/helpers/large-run';
import { examplePreflight } from '../test/helpers/policy-sets/bench-payloads';

/** The big-run stage over HTTP: its size, its figures per target, and the ratios to the baseline's. */
export interface LargeRunHttpFigures {
  targets: number;
  bodyBytes: number;
  connections: number;
  http: Array<HttpTargetFigures & { cpuRatio: number }>;
}

/** Room for the bodies: the service's default BODY_LIMIT (16mb), and the baseline's raw-body limit. */
const BODY_LIMIT = '16mb';

/**
 * Big runs end to end (issue 29 item 2): the bench payloads with `size` targets (every attribute,
 * test/helpers/large-run.ts), signed and sent from `settings.connections` connections to the
 * baseline (Express, raw body + HMAC) and to the started service. What the service spends over the
 * baseline per request (CPU us/req, its ratio) is reading the body as it arrives, the strict parse,
 * validation, the decision, the audit line and the answer; p99 under concurrency is the other figure.
 */
export async function largeRunHttpStage(
  targets: readonly HttpTarget[],
  size: number,
  settings: LoadSettings,
  nodeArgs: string[],
): Promise<LargeRunHttpFigures> {
  const variants = payloadVariants(SECRET, largeRun(examplePreflight(), size));
  const measured = [];
  for (const t of targets) {
    process.stderr.write(`bench: ${size.toLocaleString('en-US')}-target runs over HTTP, ${t.name}...\n`);
    const { expected: _e, ...figures } = await measureTarget(t, variants, settings, nodeArgs, { BODY_LIMIT });
    measured.push(figures);
  }
  const base = measured.find((t) => t.kind === 'baseline') ?? measured[0];
  return {
    targets: size,
    bodyBytes: variants[0].body.length,
    connections: settings.connections,
    // One round: its ratios to the baseline measured just before.
    http: combineRounds([measured]).map((t) => ({
      ...t,
      cpuRatio: t.cpuMicrosPerRequest / base.cpuMicrosPerRequest,
    })),
  };
}

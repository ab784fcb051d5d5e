import type { HttpTargetFigures } from './figures';
import { combineRounds } from './http-rounds';
import { measureTarget, SECRET, type HttpTarget } from './http-stage';
import type { LoadSettings } from './load-run';
import { payloadVariants } from './payload-variants';
import { largeRun } from '../test/helpers/large-run';
import { examplePreflight } from '../test/helpers/policy-sets/bench-payloads';

/** The big-run stage over HTTP: its size, its figures per target, and the ratios to the floor's. */
export interface LargeRunHttpFigures {
  targets: number;
  bodyBytes: number;
  connections: number;
  http: Array<HttpTargetFigures & { cpuRatio: number }>;
}

/** Room for the bodies: the service's default BODY_LIMIT (16mb). */
const BODY_LIMIT = '16mb';

/**
 * Big runs end to end (issue 29 item 2): the bench payloads with `size` targets (every attribute,
 * test/helpers/large-run.ts), signed and sent from `settings.connections` connections to the
 * floor (bare node:http: raw body, HMAC, JSON.parse) and to the started service. What the service
 * spends over the floor per request (CPU us/req, its ratio) is the strict parse over JSON.parse,
 * validation, the decision, the audit line and the answer; throughput over the floor's is the target,
 * p99 under concurrency the other figure.
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
  const base = measured.find((t) => t.kind === 'floor') ?? measured[0];
  return {
    targets: size,
    bodyBytes: variants[0].body.length,
    connections: settings.connections,
    // One round: its ratios to the floor measured just before.
    http: combineRounds([measured]).map((t) => ({
      ...t,
      cpuRatio: t.cpuMicrosPerRequest / base.cpuMicrosPerRequest,
    })),
  };
}

import { join } from 'node:path';
import type { PolicyBundle } from '../src/policy/core/compiled';
import type { HttpTargetKind, MeasuredTarget } from './figures';
import { runLoad, type LoadSettings } from './load-run';
import { repoRoot } from './paths';
import { expectedStatuses, type PayloadVariant } from './payload-variants';
import { startTarget } from './target-process';

export const SECRET = 'bench-secret-not-for-production';

export interface HttpTarget {
  name: string;
  kind: HttpTargetKind;
  /** The policy directory (preflight-gate only) and its bundle, loaded in-process for the expected answers. */
  policyDir?: string;
  bundle?: PolicyBundle;
}

const ok = (status: number) => async (res: Promise<Response>) => (await res).status === status;

async function errorDecisions(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('preflight_decisions_total{') && l.includes('decision="error"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** Starts one target as its own process, loads it, reads its memory and error decisions, stops it. */
export async function measureTarget(
  target: HttpTarget,
  variants: readonly PayloadVariant[],
  settings: LoadSettings,
  nodeArgs: string[],
  extraEnv: Record<string, string> = {},
): Promise<MeasuredTarget & { expected: number[] }> {
  const root = repoRoot();
  const probe = variants[0];
  const isBare = target.kind === 'floor';
  const script = isBare ? join(__dirname, 'floor-server.js') : join(root, 'dist', 'main.js');
  // POLICY_WATCH=false: with the watcher on, the server re-reads the whole directory once the watch
  // is up, after /readyz already answers; with 10,000 files that reload would overlap the measured run.
  const env: Record<string, string> = {
    WEBHOOK_SECRET: SECRET,
    LOG_LEVEL: 'info',
    POLICY_WATCH: 'false',
    ...(target.policyDir ? { POLICY_DIR: target.policyDir } : {}),
    ...extraEnv,
  };
  const ready = isBare
    ? (url: string) =>
        ok(200)(
          fetch(`${url}/preflight`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-sb-signature': probe.signature },
            body: probe.body,
          }),
        )
    : (url: string) => ok(200)(fetch(`${url}/readyz`));
  const expected = await expectedStatuses(variants, target.bundle);
  const proc = await startTarget(script, env, ready, nodeArgs);
  try {
    const figures = await runLoad(proc.url, variants, expected, settings, proc.cpuSeconds);
    const memory = proc.memory();
    return {
      name: target.name,
      kind: target.kind,
      policies: target.bundle?.policies.length ?? 0,
      startupMs: proc.startupMs,
      ...memory,
      ...figures,
      errorDecisions: isBare ? 0 : await errorDecisions(proc.url),
      expected,
    };
  } finally {
    await proc.stop();
  }
}

import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/service/create-app';
import { serviceCapabilities } from '../../src/service/service-capabilities';
import type { ArchiveRecord } from '../../src/archive/archive-record';
import { replayCommand, type ReplayCommandOptions } from '../../src/cli/commands/replay-command';
import { readRecords } from '../../src/replay/read-records';
import type { ReplayReport } from '../../src/replay/replay-report';
import { createDecisionArchive } from '../../src/archive/create-decision-archive';
import { createLogger } from '../../src/common/logger';
import { createMetrics } from '../../src/observability/metrics';
import type { FactSource } from '../../src/policy/core/fact-source';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import { signedPost } from './signed-post';
import { createStateStore } from '../../src/state/create-state-store';
import { guardrailState } from '../../src/state/guardrail-state';
import { parseStateConfig } from '../../src/state/state-config';
import { generatedEvent, generatedPayload, type StopState } from './generated-runs';
import { seededRng } from './policy-sets/rng';

const SECRET = 'archive-secret';
/** Monday 2026-01-05 06:00 UTC: the generated decisions spread over the following days. */
export const START = Date.parse('2026-01-05T06:00:00Z');

export interface RecordedArchive {
  /** The archive directory (several rotated, gzipped files and the open one). */
  archive: string;
  policies: string;
  /** What the service answered, by decision id: status and the body's exact bytes. */
  answers: Map<string, { status: number; text: string }>;
  metrics: ReturnType<typeof createMetrics>;
}

async function post(
  port: number,
  path: string,
  body: unknown,
): Promise<{ status: number; text: string; decisionId: string | null }> {
  const res = await signedPost(`http://127.0.0.1:${port}${path}`, JSON.stringify(body), SECRET);
  return { status: res.status, text: await res.text(), decisionId: res.headers.get('x-preflight-decision-id') };
}

/**
 * Runs the real service (createApp on a node:http server on 127.0.0.1, the in-memory state store,
 * the archive writer of DECISION_ARCHIVE) through `runs` generated preflights with state events
 * between them, the clock moving on by up to 7 minutes each, and returns the archive it wrote.
 */
export interface RecordOptions {
  policies: Record<string, string>;
  runs: number;
  seed: number;
  maskAttributes?: string[];
  maxBytes?: number;
  /** Fact sources besides the state store (signals, platform names), given the recording's clock. */
  factSources?: (clock: () => Date) => FactSource[];
  /** Called before run `i` (1-based) is posted: a test changes what its fake sources answer. */
  beforeRun?: (i: number) => void;
}

export async function recordArchive(opts: RecordOptions): Promise<RecordedArchive> {
  const root = mkdtempSync(join(tmpdir(), 'replay-'));
  const policies = join(root, 'policies');
  const archive = join(root, 'archive');
  mkdirSync(policies);
  mkdirSync(archive);
  for (const [file, text] of Object.entries(opts.policies)) writeFileSync(join(policies, file), text);
  const loaded = loadPolicyDir(policies, new Date(START));
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => `${p.file}:${p.line} ${p.path} ${p.message}`).join('\n'));

  let now = START;
  const clock = () => new Date(now);
  const logger = createLogger('error', { silent: true });
  const metrics = createMetrics({ defaultMetrics: false });
  // Exception uses (maxUses) are counted as a single production replica counts them without Redis.
  const stateConfig = parseStateConfig({ EXCEPTION_USES_FILE: join(root, 'exception-uses.jsonl') });
  const decisions = createDecisionArchive(
    {
      path: join(archive, 'decisions-test.jsonl'),
      maxBytes: opts.maxBytes ?? 512 * 1024,
      maxAgeMs: 6 * 3_600_000,
      maxFiles: 0,
      queueBytes: 256 * 1024 ** 2,
      maskAttributes: opts.maskAttributes ?? [],
    },
    { logger, metrics, clock },
  );
  const stateStore = await createStateStore(stateConfig);
  const app = createApp({
    store: new PolicyStore(loaded.bundle),
    secrets: [SECRET],
    logger,
    metrics,
    capabilities: serviceCapabilities(
      { archive: decisions, state: guardrailState(stateConfig, stateStore), sources: opts.factSources?.(clock) },
      logger,
    ),
    options: { clock },
  });
  const server = await new Promise<Server>((resolve) => {
    const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as { port: number }).port;
  const answers = new Map<string, { status: number; text: string }>();
  const r = seededRng(opts.seed);
  const stop: StopState = {};
  try {
    for (let i = 1; i <= opts.runs; i++) {
      now += r.int(1_000, 420_000);
      // Events come in time order (a later one may not be older: the store keeps the newest change).
      let eventTime = now - 60_000;
      while (r.chance(0.45)) {
        eventTime += r.int(1, 10_000);
        const res = await post(port, '/events', generatedEvent(r, r.int(1, i), eventTime, stop));
        if (res.status >= 300) throw new Error(`event answered ${res.status}: ${res.text}`);
      }
      opts.beforeRun?.(i);
      const explain = r.chance(0.05);
      const res = await post(port, `/preflight${explain ? '?explain=true' : ''}`, generatedPayload(r, i, now));
      if (res.decisionId && (res.status === 200 || res.status === 403))
        answers.set(res.decisionId, { status: res.status, text: res.text });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await decisions.close();
    await stateStore.close();
  }
  if (readdirSync(archive).length === 0) throw new Error('the archive writer wrote nothing');
  return { archive, policies, answers, metrics };
}

/** Every record of a recorded archive, in the order its files were written. */
export async function archivedRecords(recorded: RecordedArchive): Promise<ArchiveRecord[]> {
  const records: ArchiveRecord[] = [];
  for (const name of readdirSync(recorded.archive).sort())
    for await (const line of readRecords(join(recorded.archive, name)))
      if (line.kind === 'record') records.push(line.record);
  return records;
}

/** `preflight-gate replay --format json` of a recorded archive (against its own policies unless `dir`): exit code, warnings, report. */
export async function replayJson(recorded: RecordedArchive, opts: Partial<ReplayCommandOptions> = {}) {
  let out = '';
  const warnings: string[] = [];
  const code = await replayCommand(
    { archive: recorded.archive, dir: recorded.policies, format: 'json', maxListed: '1000', ...opts },
    {},
    (s) => {
      out += s;
    },
    (s) => warnings.push(s),
  );
  return { code, warnings, report: JSON.parse(out) as ReplayReport };
}

/** A service's parts for a hand-written recording: the policy and archive folders, the loaded bundle, the archive writer. */
export interface ArchivingParts {
  root: string;
  policies: string;
  archive: string;
  bundle: Extract<ReturnType<typeof loadPolicyDir>, { ok: true }>['bundle'];
  clock: () => Date;
  logger: ReturnType<typeof createLogger>;
  metrics: ReturnType<typeof createMetrics>;
  decisions: ReturnType<typeof createDecisionArchive>;
}

/**
 * A temporary root (named after `prefix`) holding policies/ with `files` and an empty archive/, the
 * policies loaded at `now`, and the archive writer of that folder on a clock stopped at `now`.
 */
export function archivingParts(prefix: string, files: Record<string, string>, now: number): ArchivingParts {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const policies = join(root, 'policies');
  const archive = join(root, 'archive');
  mkdirSync(policies);
  mkdirSync(archive);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(policies, file), text);
  const loaded = loadPolicyDir(policies, new Date(now));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  const clock = () => new Date(now);
  const logger = createLogger('error', { silent: true });
  const metrics = createMetrics({ defaultMetrics: false });
  const decisions = createDecisionArchive(
    {
      path: join(archive, 'decisions-test.jsonl'),
      maxBytes: 512 * 1024,
      maxAgeMs: 3_600_000,
      maxFiles: 0,
      queueBytes: 1024 ** 2,
      maskAttributes: [],
    },
    { logger, metrics, clock },
  );
  return { root, policies, archive, bundle: loaded.bundle, clock, logger, metrics, decisions };
}

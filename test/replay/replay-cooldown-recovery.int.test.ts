import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryAnswer, SignalFacts } from '../../src/policy/facts/signal-facts';
import type { SignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { guardrailState } from '../../src/state/guardrail-state';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { parseStateConfig } from '../../src/state/state-config';
import { attackedEvent, attackedRun } from '../helpers/attacked-services';
import { archivedRecords, archivingParts, replayJson, type RecordedArchive } from '../helpers/record-archive';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { TIMING } from '../state/store-table';

const SECRET = 'replay-cooldown';
const NOW = Date.parse('2026-01-05T10:00:00Z');
const POLICY = `kind: Policy
name: checkout-recovers
rules:
  - cooldown:
      per: service
      until:
        - prometheus:
            query: 'job:errors:ratio5m{deployment="{{target.k8s.deployment}}"}'
            recoveredWhen: "< 0.01"
            for: 5m
`;
const Q = (d: string) => `job:errors:ratio5m{deployment="${d}"}`;
const HELD = (d: string) => `time() - max_over_time(timestamp(((${Q(d)}) >= 0.01) or absent(${Q(d)}))[300s:10s])`;
const run = attackedRun;
const vector = (value?: string): QueryAnswer => ({
  resultType: 'vector',
  result: value === undefined ? [] : [{ metric: {}, value: [NOW / 1000, value] }],
});

let root: string;
let recorded: RecordedArchive;

/** The service path (createApp, the state store fed by events, the archive writer) deciding three runs as checkout recovers. */
beforeAll(async () => {
  const parts = archivingParts('replay-cooldown-', { 'cooldown.yaml': POLICY }, NOW);
  const { policies, archive, clock, logger, metrics, decisions } = parts;
  root = parts.root;
  // What Prometheus answers, per query text, as checkout recovers (cart is fine throughout).
  let answers: Record<string, QueryAnswer> = {};
  const gather: SignalGatherer = async (needs) => {
    const facts: SignalFacts = { prometheus: { default: {} } };
    for (const need of needs)
      if (need.kind === 'prometheus')
        (facts.prometheus as Record<string, Record<string, QueryAnswer>>).default[need.query] = answers[need.query] ?? {
          error: 'not served',
        };
    return facts;
  };
  const state = guardrailState(parseStateConfig({}), new MemoryStateStore(TIMING));
  const { app } = testApp(parts.bundle, {
    secrets: [SECRET],
    logger,
    metrics,
    clock,
    archive: decisions,
    state,
    factSources: [signalFactSource(gather)],
  });
  const event = (name: string, atMs: number) => attackedEvent(name, 40, atMs);
  for (const e of [event('created', NOW - 14 * 60_000), event('failed', NOW - 10 * 60_000)])
    expect((await signedRequest(app, e, { path: '/events', secret: SECRET })).status).toBe(202);
  const fine = { [Q('cart')]: vector('0'), [HELD('cart')]: vector() };
  try {
    answers = { ...fine, [Q('checkout')]: vector('0.2'), [HELD('checkout')]: vector('0') };
    expect((await signedRequest(app, run(41), { secret: SECRET })).status).toBe(403);
    answers = { ...fine, [Q('checkout')]: vector('0.001'), [HELD('checkout')]: vector('70') };
    expect((await signedRequest(app, run(42), { secret: SECRET })).status).toBe(403);
    answers = { ...fine, [Q('checkout')]: vector('0.001'), [HELD('checkout')]: vector() };
    expect((await signedRequest(app, run(43), { secret: SECRET })).status).toBe(200);
  } finally {
    await decisions.close();
  }
  recorded = { archive, policies, answers: new Map(), metrics };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('the archive records what the cool-down read: the ended runs per attacked service and both queries', async () => {
  const records = await archivedRecords(recorded);
  expect(records.map((r) => r.answer.status)).toEqual([403, 403, 200]);
  const [first] = records;
  expect(first.facts.state?.ended).toEqual({
    'service:k8s.deployment=checkout': [{ id: '40', atMs: NOW - 10 * 60_000, state: 'FAILED' }],
    'service:k8s.deployment=cart': [{ id: '40', atMs: NOW - 10 * 60_000, state: 'FAILED' }],
  });
  expect(Object.keys(first.facts.signals?.prometheus?.default ?? {}).sort()).toEqual(
    [Q('checkout'), HELD('checkout'), Q('cart'), HELD('cart')].sort(),
  );
});

test('replay decides all three again from the recorded facts, and judges a proposed change on them', async () => {
  const same = await replayJson(recorded);
  expect([same.code, same.warnings, same.report.counts.unchanged, same.report.counts.replayed]).toEqual([0, [], 3, 3]);

  // Without the hold, checkout back under 1% is enough: the second run would now start.
  const proposed = join(root, 'proposed');
  mkdirSync(proposed);
  writeFileSync(join(proposed, 'cooldown.yaml'), POLICY.replace('            for: 5m\n', ''));
  const shorter = await replayJson(recorded, { dir: proposed });
  expect([shorter.report.counts.changed['newly-allowed'], shorter.report.counts.notReplayable]).toEqual([1, 0]);

  // A longer hold asks a query the recording did not read: not replayable, never guessed.
  writeFileSync(join(proposed, 'cooldown.yaml'), POLICY.replace('for: 5m', 'for: 10m'));
  const longer = await replayJson(recorded, { dir: proposed });
  expect(longer.report.counts.notReplayable).toBe(3);
});

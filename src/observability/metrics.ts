import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PolicyResult } from '../policy/core/decision';
import type { SignatureFailure } from '../signature/verify-signature';
import { PolicyResultTally } from './policy-result-tally';
import type { EventLabel, EventOutcome } from '../answer/event-outcome';

export type DecisionLabel = 'allow' | 'deny' | 'error';
const DECISIONS: readonly DecisionLabel[] = ['allow', 'deny', 'error'];
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];
const SIGNATURE_FAILURES: readonly SignatureFailure[] = ['missing', 'malformed', 'mismatch'];

/** The events that change the state (the rest are accepted and ignored). */
const TRACKED_EVENTS: readonly EventLabel[] = [
  'experiment.execution.created',
  'experiment.execution.completed',
  'experiment.execution.failed',
  'experiment.execution.errored',
  'experiment.execution.canceled',
  'killswitch.engaged',
  'killswitch.disengaged',
];
const STATE_OUTCOMES: readonly EventOutcome[] = [
  'recorded',
  'duplicate',
  'stale',
  'unmatched',
  'outside_tolerance',
  'unavailable',
];
const REQUEST_OUTCOMES: readonly EventOutcome[] = ['ignored', 'invalid', 'unauthorized', 'error'];

/** What the state store gauge reads at scrape time. */
export type StateStoreHealth = () => { store: string; available: boolean };

/** Every metric of the service, in a registry of its own (no global state; tests make many). */
export interface Metrics {
  registry: Registry;
  decisions: Counter<'decision'>;
  /** One answer to POST /preflight in preflight_decisions_total. */
  countDecision(outcome: DecisionLabel): void;
  /** preflight_policy_results_total: every result of a decision but `skipped`. */
  countPolicyResults(results: readonly PolicyResult[]): void;
  requestDuration: Histogram<'route' | 'status'>;
  signatureFailures: Counter<'reason'>;
  /** preflight_signature_verified_total{secret}: signed requests accepted, by the fingerprint of the secret that verified them. */
  signatureVerified: Counter<'secret'>;
  /** A signed request accepted, by the fingerprint of the secret that verified it. */
  countVerified(fingerprint: string): void;
  reloads: Counter<'result'>;
  policiesLoaded: Gauge;
  bundleInfo: Gauge<'revision'>;
  /** preflight_policy_files_in_sync: 1 while the policy files on disk are the set in use (policy-sync.ts). */
  policyFilesInSync: Gauge;
  events: Counter<'event' | 'outcome'>;
  /** preflight_decision_archive_records_total: archive lines written, dropped (queue full) or failed (docs/replay.md). */
  archive: Counter<'outcome'>;
  /** preflight_decision_archive_uploads_total{outcome}: closed archive files sent to S3 (DECISION_ARCHIVE=s3://...), uploaded or failed. */
  archiveUploads: Counter<'outcome'>;
  /** preflight_decision_archive_spool_bytes: closed archive files waiting in the local spool for upload. */
  archiveSpoolBytes: Gauge;
  /** preflight_state_store_up reports this store's health at every scrape (no series until called). */
  observeStateStore(health: StateStoreHealth): void;
}

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry });
    // Gauges named *_total break Prometheus' naming rules (`promtool check metrics`); the per-type
    // gauges nodejs_active_handles/requests/resources carry the same numbers (sum them in PromQL).
    for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name);
  }
  const registers = [registry];
  let stateHealth: StateStoreHealth | undefined;
  const policyResults = new PolicyResultTally();
  const metrics: Metrics = {
    registry,
    decisions: new Counter({
      name: 'preflight_decisions_total',
      help: 'Answers to POST /preflight: allow (200), deny (403), error (any other status; the run does not start).',
      labelNames: ['decision'],
      registers,
    }),
    countDecision: (decision) => metrics.decisions.inc({ decision }),
    countPolicyResults: (results) => policyResults.add(results),
    requestDuration: new Histogram({
      name: 'preflight_request_duration_seconds',
      help: 'Time to answer a webhook request, from first byte to answer.',
      labelNames: ['route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    signatureFailures: new Counter({
      name: 'preflight_signature_failures_total',
      help: 'Requests rejected for their signature.',
      labelNames: ['reason'],
      registers,
    }),
    signatureVerified: new Counter({
      name: 'preflight_signature_verified_total',
      help: 'Signed requests accepted, by the secret that verified them (sha256:<first 8 hex digits>; rotation: the old one falls to 0).',
      labelNames: ['secret'],
      registers,
    }),
    countVerified: (secret) => metrics.signatureVerified.inc({ secret }),
    reloads: new Counter({
      name: 'preflight_policy_reloads_total',
      help: 'Policy set loads by result.',
      labelNames: ['result'],
      registers,
    }),
    policiesLoaded: new Gauge({
      name: 'preflight_policies_loaded',
      help: 'Policies loaded from the policy files in use (POLICY_DIR); the built-in ones (emergency stop) are not counted, /readyz counts both.',
      registers,
    }),
    bundleInfo: new Gauge({
      name: 'preflight_policy_bundle_info',
      help: 'The policy set in use (value 1), by revision.',
      labelNames: ['revision'],
      registers,
    }),
    policyFilesInSync: new Gauge({
      name: 'preflight_policy_files_in_sync',
      help: '1 while the policy files in POLICY_DIR are the set in use; 0 after a failed load (invalid set, directory missing or unreadable): the files on disk are not what is served. /readyz says why (policyFiles).',
      registers,
    }),
    events: new Counter({
      name: 'preflight_events_total',
      help: 'Answers to POST /events (custom webhooks), by Steadybit event name and outcome.',
      labelNames: ['event', 'outcome'],
      registers,
    }),
    archive: new Counter({
      name: 'preflight_decision_archive_records_total',
      help: 'Decisions for the decision archive (DECISION_ARCHIVE): written, dropped (the queue was full) or failed (a write error).',
      labelNames: ['outcome'],
      registers,
    }),
    archiveUploads: new Counter({
      name: 'preflight_decision_archive_uploads_total',
      help: 'Closed decision archive files sent to S3 (DECISION_ARCHIVE=s3://...): uploaded, or failed (kept in the spool and tried again).',
      labelNames: ['outcome'],
      registers,
    }),
    archiveSpoolBytes: new Gauge({
      name: 'preflight_decision_archive_spool_bytes',
      help: 'Bytes of closed decision archive files waiting in the local spool for upload to S3.',
      registers,
    }),
    observeStateStore: (health) => {
      stateHealth = health;
    },
  };
  // Kept by the registry only: it reads the tally at every scrape.
  new Counter({
    name: 'preflight_policy_results_total',
    help: 'Policy results of preflight decisions (skipped policies are not counted).',
    labelNames: ['policy', 'result', 'mode'],
    registers,
    collect() {
      this.reset();
      for (const { policy, result, mode, count } of policyResults.counts()) this.inc({ policy, result, mode }, count);
    },
  });
  // Kept by the registry only: it reads the observed store's health at every scrape.
  new Gauge({
    name: 'preflight_state_store_up',
    help: 'Whether the state store of guardrails with memory answers (1) or not (0: runs that need state are denied, events are refused).',
    labelNames: ['store'],
    registers,
    collect() {
      this.reset();
      const health = stateHealth?.();
      if (health) this.set({ store: health.store }, health.available ? 1 : 0);
    },
  });
  // Known label values start at 0, so rate() and the chart's alerts work before the first event.
  for (const decision of DECISIONS) metrics.decisions.inc({ decision }, 0);
  for (const reason of SIGNATURE_FAILURES) metrics.signatureFailures.inc({ reason }, 0);
  for (const result of ['success', 'failure']) metrics.reloads.inc({ result }, 0);
  for (const event of TRACKED_EVENTS) for (const outcome of STATE_OUTCOMES) metrics.events.inc({ event, outcome }, 0);
  for (const outcome of REQUEST_OUTCOMES) metrics.events.inc({ event: 'other', outcome }, 0);
  for (const outcome of ['written', 'dropped', 'failed']) metrics.archive.inc({ outcome }, 0);
  return metrics;
}

import type { PolicyBundle } from '../policy/core/compiled';
import { decide } from '../policy/engine/decide';
import type { KeptOutcomes } from '../policy/engine/kept-outcomes';
import type { Facts } from '../policy/facts/facts';
import type { Decision, Mode, PolicyResult, PreflightPayload } from '../policy/core/decision';
import type { SilentSignal } from '../policy/facts/signal-facts';

/** One guarded policy that no longer holds for a run in progress. */
export interface PolicyStop {
  policy: string;
  mode: Mode;
  /** Why, as the policy's rules said it (the policy's message when it has one). */
  reason: string;
  /**
   * `stop`: the run is to be cancelled; `report`: said, not acted on: a `warn`/`audit` policy
   * (what it would stop), or a policy that cannot judge with `onCannotJudge: report` (the default).
   */
  action: 'stop' | 'report';
  /** The policy could not judge (a signal source away, a fact missing): its `onCannotJudge` decided. */
  cannotJudge: boolean;
  /** A `deadMan` found a signal silent for longer than it allows (docs/guard.md, "Dead man"). */
  deadMan?: true;
}

/** The re-judgement of one run in progress: stop it (by which policies), or let it go on (with what is reported). */
export interface RunJudgement {
  stop: boolean;
  /** Every guarded policy that found something: those that stop the run first, then those only reported. */
  findings: PolicyStop[];
  /** The decision on the guarded part (guard-view.ts): the audit line's and the archive's. */
  decision: Decision;
  /** The signals of deadMan rules found silent now, and since when: what the guard keeps for the run's next tick. */
  silent: SilentSignal[];
}

const found = (r: PolicyResult) => r.result === 'deny' || r.result === 'warn' || r.result === 'audit';

function findingOf(r: PolicyResult, onCannotJudge: 'report' | 'stop'): PolicyStop {
  const cannotJudge = (r.findings ?? []).length > 0 && (r.findings ?? []).every((f) => f.undecidable === true);
  const enforced = r.mode === 'enforce' && r.result === 'deny';
  const action = enforced && (!cannotJudge || onCannotJudge === 'stop') ? 'stop' : 'report';
  const deadMan = (r.findings ?? []).some((f) => f.signal?.silent !== undefined);
  return {
    policy: r.policy,
    mode: r.mode,
    reason: r.message ?? r.reasons.join('; '),
    action,
    cannotJudge,
    ...(deadMan ? { deadMan: true as const } : {}),
  };
}

/** Every silent signal the decision's deadMan rules read, each once. */
function silentOf(decision: Decision): SilentSignal[] {
  const out = new Map<string, SilentSignal>();
  for (const r of decision.results)
    for (const read of r.signals ?? [])
      if (read.silent) out.set(JSON.stringify([read.silent.kind, read.silent.source, read.silent.query]), read.silent);
  return [...out.values()];
}

/**
 * The facts as judged while running: `signals.silentSince` is always there (none given: no signal
 * was silent before now). Replay judges the guard's stops on these too (redecide.ts).
 */
export function runningFacts(facts: Facts): Facts {
  if (facts.signals?.silentSince !== undefined) return facts;
  return { ...facts, signals: { ...facts.signals, silentSince: [] } };
}

/**
 * Each guarded policy's `onCannotJudge`, once per view (a bundle is never changed): built again per
 * run, it cost a tick over 1,000 runs against 1,000 guarded policies a million map entries, a
 * fifth of its CPU (issue 48, measured on Node 26.12.1).
 */
const onCannotJudge = new WeakMap<PolicyBundle, ReadonlyMap<string, 'report' | 'stop'>>();
function onCannotJudgeOf(view: PolicyBundle): ReadonlyMap<string, 'report' | 'stop'> {
  let settings = onCannotJudge.get(view);
  if (!settings) {
    settings = new Map(view.policies.map((p) => [p.name, p.whileRunning?.onCannotJudge ?? 'report']));
    onCannotJudge.set(view, settings);
  }
  return settings;
}

/**
 * Judges a run in progress on the guarded part of a policy set (`view`: guardView(bundle)) with
 * the facts of now: the same pure `decide` as at the door, then each policy that no longer holds
 * is a stop (enforce), or only reported (warn/audit, or cannot judge with `onCannotJudge: report`).
 * `facts.signals.silentSince`: since when deadMan signals are silent (the guard keeps it per run;
 * none given, none was silent before now). `kept`: the run's outcomes from an earlier tick on
 * the same payload and facts (decide.ts), given again. Pure: the service's guard, `eval --while-running` and suites give the same answer.
 */
export function judgeRunningRun(
  view: PolicyBundle,
  payload: PreflightPayload,
  facts: Facts,
  now: Date,
  decisionId: string,
  kept?: KeptOutcomes,
): RunJudgement {
  const decision = decide(view, payload, runningFacts(facts), now, { decisionId, ...(kept ? { kept } : {}) });
  const settings = onCannotJudgeOf(view);
  const findings = decision.results.filter(found).map((r) => findingOf(r, settings.get(r.policy) ?? 'report'));
  findings.sort((a, b) => Number(b.action === 'stop') - Number(a.action === 'stop'));
  return { stop: findings.some((f) => f.action === 'stop'), findings, decision, silent: silentOf(decision) };
}

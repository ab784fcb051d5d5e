import type { ArchivedAnswer } from '../archive/archive-record';
import type { ArchivedResult } from '../archive/archived-results';
import type { Modification, PolicyResultKind } from '../policy/types';
import { isJsonObject } from '../json-object';
import { sameJson } from './same-json';

/** How a replayed answer differs from the recorded one, the first kind that applies. */
export type ChangeKind = 'newly-allowed' | 'newly-denied' | 'message' | 'modifications' | 'results';
/** In the order reports list them: loosened guardrails first. */
export const CHANGE_KINDS: readonly ChangeKind[] = ['newly-allowed', 'newly-denied', 'message', 'modifications', 'results'];

/** What Steadybit saw of an answer. */
export interface AnswerSummary {
  status: number;
  message: string;
  modifications: Modification[];
}

/** One policy whose result for the run changed; `absent` = not visited (out of scope, or not in the set). */
export interface PolicyChange {
  policy: string;
  before: PolicyResultKind | 'absent';
  after: PolicyResultKind | 'absent';
}

/**
 * `same`: Steadybit would get the same answer and no policy's result changed; `exact` when also the
 * per-policy results are identical to the byte (a policy's source line may move in a proposed set).
 */
export type Comparison = { same: true; exact: boolean } | { same: false; kind: ChangeKind; before: AnswerSummary; after: AnswerSummary; policies: PolicyChange[] };

export function summary(answer: ArchivedAnswer): AnswerSummary {
  const body = isJsonObject(answer.body) ? answer.body : {};
  return {
    status: answer.status,
    message: typeof body.message === 'string' ? body.message : '',
    modifications: Array.isArray(body.modifications) ? (body.modifications as Modification[]) : [],
  };
}

const comparable = (r: ArchivedResult) => JSON.stringify([r.result, r.mode, r.reasons, r.message ?? null, r.exception ?? null]);

/** Policies whose result (kind, mode, reasons, message or exception) differs, in the order first seen. */
export function policyChanges(before: readonly ArchivedResult[], after: readonly ArchivedResult[]): PolicyChange[] {
  const old = new Map(before.map((r) => [r.policy, r]));
  const now = new Map(after.map((r) => [r.policy, r]));
  const out: PolicyChange[] = [];
  for (const name of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(name);
    const b = now.get(name);
    if (a && b && comparable(a) === comparable(b)) continue;
    // Skipped and not visited mean the same: the policy did not apply to the run.
    const kind = (r: ArchivedResult | undefined) => (r === undefined || r.result === 'skipped' ? 'absent' : r.result);
    if (kind(a) === 'absent' && kind(b) === 'absent') continue;
    out.push({ policy: name, before: kind(a), after: kind(b) });
  }
  return out;
}

/** Revisions to write alike: the proposed set's revision reads as the recorded one (the {{revision}} placeholder). */
export interface RevisionAlias { proposed: string; recorded: string }

type Answered = { answer: ArchivedAnswer; results: readonly ArchivedResult[] };

/**
 * The recorded answer against the replayed one. Same means byte for byte: the JSON text of status
 * and body (explanation included) and of the per-policy results (sameJson finds it without writing
 * them out). A message or modification that
 * quotes the policy revision ({{revision}}) would differ under every proposed set, so the proposed
 * revision is read as the recorded one (`alias`).
 */
export function compareAnswers(recorded: Answered, replayed: Answered, alias?: RevisionAlias): Comparison {
  const renamed = alias && alias.proposed !== alias.recorded ? (text: string) => text.split(alias.proposed).join(alias.recorded) : undefined;
  const answerSame = sameJson(recorded.answer, replayed.answer, renamed);
  if (answerSame && sameJson(recorded.results, replayed.results, renamed)) return { same: true, exact: true };
  const same = (text: string) => (renamed ? renamed(text) : text);
  const policies = policyChanges(recorded.results, JSON.parse(same(JSON.stringify(replayed.results))) as ArchivedResult[]);
  if (answerSame && policies.length === 0) return { same: true, exact: false };
  const before = summary(recorded.answer);
  const after = summary(JSON.parse(same(JSON.stringify(replayed.answer))) as ArchivedAnswer);
  let kind: ChangeKind;
  const allowed = (s: AnswerSummary) => s.status >= 200 && s.status < 300;
  if (!allowed(before) && allowed(after)) kind = 'newly-allowed';
  else if (allowed(before) && !allowed(after)) kind = 'newly-denied';
  else if (before.message !== after.message) kind = 'message';
  else if (JSON.stringify(before.modifications) !== JSON.stringify(after.modifications)) kind = 'modifications';
  else kind = 'results';
  return { same: false, kind, before, after, policies };
}

import type { ArchivedAnswer } from '../archive/archive-record';
import type { ArchivedResult } from '../archive/archived-results';
import type { Modification, PolicyResultKind } from '../policy/core/decision';
import { isJsonObject } from '../common/json-object';
import { isAbsolute, relative, sep } from 'node:path';
import { sameJson } from './same-json';

/** How a replayed answer differs from the recorded one, the first kind that applies. */
export type ChangeKind = 'newly-allowed' | 'newly-denied' | 'message' | 'modifications' | 'results';
/** In the order reports list them: loosened guardrails first. */
export const CHANGE_KINDS: readonly ChangeKind[] = [
  'newly-allowed',
  'newly-denied',
  'message',
  'modifications',
  'results',
];

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
export type Comparison =
  | { same: true; exact: boolean }
  | { same: false; kind: ChangeKind; before: AnswerSummary; after: AnswerSummary; policies: PolicyChange[] };

export function summary(answer: ArchivedAnswer): AnswerSummary {
  const body = isJsonObject(answer.body) ? answer.body : {};
  return {
    status: answer.status,
    message: typeof body.message === 'string' ? body.message : '',
    modifications: Array.isArray(body.modifications) ? (body.modifications as Modification[]) : [],
  };
}

const comparable = (r: ArchivedResult) =>
  JSON.stringify([r.result, r.mode, r.reasons, r.message ?? null, r.exception ?? null]);

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

/**
 * Texts that differ between the recorded and the proposed set without a difference in the decision:
 * the proposed revision reads as the recorded one (the {{revision}} placeholder), and a policy file
 * of the proposed directory (`policyDir`) as the recorded file with the same path relative to it
 * (an ?explain=true answer names each policy's file; a pull request's checkout is not the service's
 * POLICY_DIR).
 */
export interface RevisionAlias {
  proposed: string;
  recorded: string;
  policyDir?: string;
}

type Answered = { answer: ArchivedAnswer; results: readonly ArchivedResult[] };

/** `/srv/policies/a/b.yaml` (recorded) and `policies/a/b.yaml` (replayed from `policies`): the same file. */
export function sameFileUnder(dir: string, recorded: string, replayed: string): boolean {
  const rel = relative(dir, replayed);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return false;
  return recorded === rel || recorded.endsWith(`${sep}${rel}`);
}

/**
 * The recorded answer against the replayed one. Same means byte for byte: the JSON text of status
 * and body (explanation included) and of the per-policy results (sameJson finds it without writing
 * them out), except for the texts `alias` names.
 */
export function compareAnswers(recorded: Answered, replayed: Answered, alias?: RevisionAlias): Comparison {
  const renamed =
    alias && alias.proposed !== alias.recorded
      ? (text: string) => text.split(alias.proposed).join(alias.recorded)
      : undefined;
  const dir = alias?.policyDir;
  const sameText = (a: string, b: string) =>
    (renamed !== undefined && a === renamed(b)) || (dir !== undefined && sameFileUnder(dir, a, b));
  const answerSame = sameJson(recorded.answer, replayed.answer, sameText);
  if (answerSame && sameJson(recorded.results, replayed.results, sameText)) return { same: true, exact: true };
  const same = (text: string) => (renamed ? renamed(text) : text);
  const policies = policyChanges(
    recorded.results,
    JSON.parse(same(JSON.stringify(replayed.results))) as ArchivedResult[],
  );
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

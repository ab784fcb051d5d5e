import { preflightAnswer, type PreflightAnswerBody } from '../policy/core/preflight-answer';
import { validatePreflightPayload } from '../payload/validate-payload';
import type { Decision } from '../policy/core/decision';
import { decide } from '../policy/engine/decide';
import { givenFacts } from '../policy/facts/quiet-facts';
import { readFacts } from '../policy/facts/read-facts';
import { builtInPolicies, withBuiltIns } from '../policy/compile/built-in-policies';
import { loadPolicyTexts } from '../policy/loading/load-policy-texts';
import { parseIsoTime } from '../policy/time/iso-time';
import type { PlaygroundInput } from './playground-input';

/**
 * The decision id of every playground decision: the nil UUID. It shows in the message, so it stays
 * the same while typing; it has the length of the service's ids (random UUIDs), so a long message is
 * cut exactly where the service would cut it.
 */
export const PLAYGROUND_DECISION_ID = '00000000-0000-0000-0000-000000000000';

/** Which editor a problem belongs in. */
export type PlaygroundPart = 'policies' | 'payload' | 'now' | 'facts';

/** A problem of the input, where it is: a policy file's line and column, or a field path of the payload or facts. */
export interface PlaygroundProblem {
  part: PlaygroundPart;
  message: string;
  severity: 'error' | 'warning';
  file?: string;
  line?: number;
  col?: number;
  path?: string;
}

export type PlaygroundResult =
  | ({ ok: true; decision: Decision; warnings: PlaygroundProblem[] } & PreflightAnswerBody)
  /** No decision: the service would answer 400 (payload) or not start (policies); fail closed, a deny. */
  | { ok: false; status: 400 | undefined; message: string; problems: PlaygroundProblem[] };

const error = (part: PlaygroundPart, message: string, path?: string): PlaygroundProblem => ({
  part,
  message,
  severity: 'error',
  ...(path === undefined ? {} : { path }),
});

/** The input problems that stop a decision, of every part at once (fix them all in one go). */
function readParts(input: PlaygroundInput) {
  const problems: PlaygroundProblem[] = [];
  const now = parseIsoTime(input.now);
  if (now === undefined)
    problems.push(error('now', `must be an ISO 8601 time such as 2026-03-02T10:00:00Z, got "${input.now}"`));
  const payload = validatePreflightPayload(input.payload);
  if (!payload.ok) problems.push(...payload.errors.map((e) => error('payload', e.message, e.path)));
  const facts = readFacts(input.facts);
  if (!facts.ok) problems.push(...facts.errors.map((e) => error('facts', e.message, e.path)));
  const loaded = loadPolicyTexts(input.policies, now ?? new Date(0));
  const loadProblems = loaded.ok ? loaded.warnings : loaded.problems;
  problems.push(
    ...loadProblems.map(({ file, line, col, path, message, severity }) => ({
      part: 'policies' as const,
      file,
      line,
      col,
      path,
      message,
      severity,
    })),
  );
  return { now, payload, facts, loaded, problems };
}

/**
 * The answer the service would give to this input, decided by the engine itself (loadPolicyTexts,
 * the built-in emergency stop as EMERGENCY_STOP_POLICY=enforce, decide with the facts given, else a
 * fresh service's): status, message, modifications and the full explanation. Pure; runs in the page.
 */
export function decidePlayground(input: PlaygroundInput): PlaygroundResult {
  const { now, payload, facts, loaded, problems } = readParts(input);
  if (now === undefined || !payload.ok || !facts.ok || !loaded.ok) {
    const payloadBad = problems.some((p) => p.part === 'payload');
    const message = loaded.ok
      ? 'no decision: fix the input first (the service would refuse this request)'
      : 'no decision: the policy set does not load (the service would not start with it)';
    return {
      ok: false,
      status: payloadBad ? 400 : undefined,
      message,
      problems: problems.filter((p) => p.severity === 'error' || !loaded.ok),
    };
  }
  const bundle = withBuiltIns(loaded.bundle, builtInPolicies('enforce'));
  const decision = decide(bundle, payload.payload, givenFacts(bundle.needs, facts.facts), now, {
    decisionId: PLAYGROUND_DECISION_ID,
    fullScan: true,
  });
  return { ok: true, decision, warnings: problems, ...preflightAnswer(decision, false) };
}

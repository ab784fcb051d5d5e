import type { Decision } from './decision';

/** What Steadybit gets for a decision: 200 with modifications, or 403 with the reason. */
export interface PreflightAnswerBody {
  status: 200 | 403;
  body: { message: string; modifications?: Decision['modifications']; explanation?: Decision };
}

/**
 * The one translation of a Decision into Steadybit's answer: used by the route, the decision
 * archive and replay, so a replayed answer compares byte for byte with the one that was sent.
 */
export function preflightAnswer(decision: Decision, explain: boolean): PreflightAnswerBody {
  const explanation = explain ? { explanation: decision } : {};
  return decision.allowed
    ? { status: 200, body: { message: decision.message, modifications: decision.modifications, ...explanation } }
    : { status: 403, body: { message: decision.message, ...explanation } };
}

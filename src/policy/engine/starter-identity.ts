import type { EvaluationContext } from '../core/evaluation-context';
import { memoKey } from '../core/memo';
import { leafSource } from '../../syntax/glob-regex';

/**
 * Who started the run as scopes and the approver check compare it: `execution.createdBy.username`
 * (the Steadybit user id) and `.email`, lower-cased; the display `name` is never compared (it is
 * neither unique nor checked by Steadybit). Empty when the payload does not say (a schedule, an old
 * platform): then nothing about the starter is known (docs/policies.md#who-started-the-run).
 */
export interface StarterIdentity {
  username?: string;
  email?: string;
  /** The values present, for messages and matching: username first. */
  all: readonly string[];
  /** How the run names its starter in messages, e.g. `jane@example.com`. */
  text?: string;
}

const STARTER = memoKey<StarterIdentity>("the run's starter, lower-cased");

const lower = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined;

/** The run's starter, read once per decision. */
export function starterOf(ctx: EvaluationContext): StarterIdentity {
  return ctx.memo.get(STARTER, () => {
    const by = ctx.execution.createdBy;
    const username = lower(by?.username);
    const email = lower(by?.email);
    const all = [username, email].filter((v): v is string => v !== undefined);
    const shown = by?.email ?? by?.username;
    return { username, email, all, text: typeof shown === 'string' ? shown : undefined };
  });
}

/**
 * Whether `person` (a username or an email, as written in an exception's approvedBy or a member
 * list) is the run's starter, compared case-insensitively on username and email; undefined when
 * it cannot be told: the payload names no starter, or `person` is an email and the payload sends
 * the starter's username only (and it differs).
 */
export function isStarter(person: string, starter: StarterIdentity): boolean | undefined {
  const p = person.trim().toLowerCase();
  if (starter.all.length === 0) return undefined;
  if (starter.all.some((v) => sameName(p, v))) return true;
  if (p.includes('@') && starter.email === undefined) return undefined;
  if (!p.includes('@') && starter.username === undefined) return undefined;
  return false;
}

const ASCII = /^[\u0000-\u007f]*$/;

/**
 * Whether two lower-cased names are one, as a `createdBy` glob of the one matches the other: case
 * folded, so `ſam` (long s) is `sam` here as it is in a scope. For two ASCII names that is equality.
 */
function sameName(person: string, value: string): boolean {
  if (person === value) return true;
  if (ASCII.test(person) && ASCII.test(value)) return false;
  return new RegExp(`^(?:${leafSource({ kind: 'text', text: person })})$`, 'iu').test(value);
}

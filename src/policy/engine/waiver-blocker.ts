import type { CompiledException } from '../core/compiled';
import type { EvaluationContext } from '../core/evaluation-context';
import { isStarter, starterOf } from './starter-identity';

/** Why the approver check keeps the exception from waiving, or undefined (ExceptionSettings.approverNotStarter). */
function approverBlocker(e: CompiledException, ctx: EvaluationContext): string | undefined {
  if (!e.approverNotStarter) return undefined;
  const rule = 'the set requires a second person (ExceptionSettings.approverNotStarter)';
  if (e.approvedBy === undefined)
    return `exception "${e.name}" names no approvedBy and ${rule}, so it does not waive this policy`;
  const starter = starterOf(ctx);
  const same = isStarter(e.approvedBy, starter);
  if (same === true)
    return `exception "${e.name}" was approved by ${e.approvedBy}, who started this run, and ${rule}, so it does not waive this policy; ask someone else to approve it`;
  if (same === undefined)
    return `cannot tell whether ${e.approvedBy}, who approved exception "${e.name}", started this run (execution.createdBy ${starter.all.length === 0 ? 'is not sent' : `names only ${starter.text}`}) and ${rule}, so it does not waive this policy`;
  return undefined;
}

/**
 * Why an exception whose match reaches the run does not waive it now, or undefined when it does:
 * it expired, or its approver started the run (ExceptionSettings.approverNotStarter), or its maxUses
 * are used up, or its use count was not gathered or cannot be kept (unknown never waives).
 */
export function waiverBlocker(e: CompiledException, ctx: EvaluationContext): string | undefined {
  if (e.expires <= ctx.now)
    return `exception "${e.name}" expired at ${e.expires.toISOString()} and no longer waives this policy`;
  const approver = approverBlocker(e, ctx);
  if (approver !== undefined) return approver;
  if (e.maxUses === undefined) return undefined;
  const counts = ctx.facts.state?.exceptionUses;
  if (counts === undefined)
    return `cannot tell how often exception "${e.name}" was used (${ctx.facts.state?.exceptionUsesUnknown ?? 'the state store was not read'}), so it does not waive this policy`;
  const used = counts[e.name] ?? 0;
  if (used >= e.maxUses)
    return `exception "${e.name}" is used up (${used} of ${e.maxUses} run${e.maxUses === 1 ? '' : 's'} waived) and no longer waives this policy; ask for a new one`;
  return undefined;
}

/** ` (use 1 of 1)` for an exception with maxUses: what a waived run's reason adds. */
export function useText(e: CompiledException, ctx: EvaluationContext): string {
  if (e.maxUses === undefined) return '';
  return `, use ${(ctx.facts.state?.exceptionUses?.[e.name] ?? 0) + 1} of ${e.maxUses}`;
}

import { decide } from '../../src/policy/decide';
import { formatProblem } from '../../src/policy/load-error';
import { loadBundle } from '../../src/policy/load-bundle';
import type { Decision, PreflightPayload } from '../../src/policy/types';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/test-app';

/** The decision on the spec example (changed by `change`) at a pinned moment; a full scan lists every policy. */
export function decideAt(files: Record<string, string>, now: string, change: (p: PreflightPayload) => void = () => undefined): Decision {
  const at = new Date(now);
  return decide(bundleFrom(files, at), preflightWith(change), {}, at, { decisionId: 'd-1', fullScan: true });
}

/** The formatted load problems (errors and warnings) of an inline policy set. */
export function loadProblems(files: Record<string, string>, now = new Date('2026-01-05T10:00:00Z')): string[] {
  const result = loadBundle(Object.entries(files).map(([file, text]) => ({ file, text })), now);
  return result.ok ? result.warnings.map(formatProblem) : result.problems.map(formatProblem);
}

/** A one-rule policy around a rule written as YAML flow or block text. */
export function policyWith(rule: string, extra = ''): string {
  return `kind: Policy\nname: under-test\n${extra}rules:\n  - ${rule}\n`;
}

import type { PolicyBundle } from '../../policy/core/compiled';
import type { RuleBranch } from '../../policy/core/rule-branch';
import { BUILT_IN_FILE } from '../../policy/compile/built-in-policies';
import type { ParsedDocument, SourceFile } from '../../policy/compile/yaml-source';
import { writtenDocuments } from '../../policy/loading/written-documents';
import { RULES_BY_KEY } from '../../policy/rules';
import type { BasePolicies } from './base-policies';
import { branchChange, ruleChanges, type Change, type RuleChange } from './rule-changes';

/** What `test --coverage` counts (docs/test-coverage.md): each is covered or not. */
export type CoverageKind = 'policy' | 'rule' | 'exception' | 'branch';

/** One thing of the policy set a test case can exercise, where it is written. */
export interface PlannedItem {
  kind: CoverageKind;
  file: string;
  line: number;
  col: number;
  /** The policy (for an exception: the one it waives). */
  policy: string;
  /** A rule's path in its policy, e.g. `rules[0].timeWindow` (rules and branches). */
  rule?: string;
  exception?: string;
  branch?: RuleBranch;
  /** With `--coverage-changed`: a rule or window the change adds or edits (absent: as in the base). */
  change?: Change;
}

/** The key a rule is tallied under: its policy and its path there. */
export const ruleKey = (policy: string, rule: string): string => `${policy}\n${rule}`;

const RULE_PATH = /^rules\[(\d+)\]\.(.+)$/;

type Locate = ParsedDocument['locate'];

/** A rule's branches, declared by its kind from the spec as written (RuleKind.branches). */
function branchesOf(kind: string, spec: unknown): RuleBranch[] {
  return RULES_BY_KEY.get(kind)?.branches?.(spec as never) ?? [];
}

/** The branches of a base rule entry; undefined when its spec no longer compiles (the base is only read, never loaded). */
function baseBranchesOf(entry: unknown): RuleBranch[] | undefined {
  const [kind, spec] = Object.entries((entry ?? {}) as Record<string, unknown>)[0] ?? [];
  try {
    return kind === undefined ? undefined : branchesOf(kind, spec);
  } catch {
    return undefined;
  }
}

const changed = (change: Change | undefined) => (change === undefined ? {} : { change });

/**
 * Everything of the loaded policy set that the cases can exercise, in file order: each policy,
 * its rules and their branches, and each exception; the built-in policies are not counted (no file
 * of the set holds them). `sources` are the files the bundle was loaded from: they give the lines.
 * With `base` (--coverage-changed), the rules and branches the change adds or edits say so.
 */
export function coveragePlan(bundle: PolicyBundle, sources: readonly SourceFile[], base?: BasePolicies): PlannedItem[] {
  const documentOf = writtenDocuments(sources);
  const items: PlannedItem[] = [];
  for (const policy of bundle.policies) {
    if (policy.source.file === BUILT_IN_FILE) continue;
    const doc = documentOf(policy.source.file, 'Policy', policy.name);
    const at: Locate = doc ? (path, how) => doc.locate(path, how) : () => policy.source;
    const { file } = policy.source;
    items.push({ kind: 'policy', file, ...at([]), policy: policy.name });
    const writtenRules = (doc?.value as { rules?: Array<Record<string, unknown>> } | undefined)?.rules ?? [];
    const changes = base ? ruleChanges(writtenRules, base.rules.get(policy.name)) : [];
    for (const rule of policy.rules) {
      const m = RULE_PATH.exec(rule.path);
      const index = m ? Number(m[1]) : -1;
      // A rule whose written entry cannot be found is compared as added: the check asks more, never less.
      const ruleChange: RuleChange = base ? (changes[index] ?? { change: 'added' }) : {};
      items.push({
        kind: 'rule',
        file,
        ...at(['rules', index]),
        policy: policy.name,
        rule: rule.path,
        ...changed(ruleChange.change),
      });
      const spec = writtenRules[index]?.[rule.kind];
      const baseBranches = ruleChange.change === 'edited' ? baseBranchesOf(ruleChange.before) : undefined;
      const branches = spec === undefined ? [] : branchesOf(rule.kind, spec);
      for (const branch of branches) {
        const where = at(['rules', index, rule.kind, ...branch.path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))]);
        const change = branchChange(ruleChange, branch, branches, baseBranches);
        items.push({
          kind: 'branch',
          file,
          ...where,
          policy: policy.name,
          rule: rule.path,
          branch,
          ...changed(change),
        });
      }
    }
  }
  for (const e of bundle.exceptions) {
    const doc = documentOf(e.source.file, 'Exception', e.name);
    const where = doc ? doc.locate([]) : e.source;
    items.push({ kind: 'exception', file: e.source.file, ...where, policy: e.policy, exception: e.name });
  }
  return items;
}

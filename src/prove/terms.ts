import type { CompiledPolicy, PolicyBundle } from '../policy/core/compiled';
import { assembleBundle } from '../policy/compile/assemble-bundle';
import { BUILT_IN_FILE } from '../policy/compile/built-in-policies';
import type { Doc, PolicySet } from './policy-set';
import { stepCoupling, type Totals, totalsOf } from './steps';
import { targetRuleReads } from './target-classes';

/**
 * The dimensions of a run the analysis splits into classes (docs/prove.md): `env` (the run's
 * environments with their names and aliases), `team`, `key` (experiment key), `via` (createdVia),
 * `version`, who started it (`starter`: `execution.createdBy.username`, `starterEmail`: its email), the one action step's `actionId`, `actionKind`, `count` (totalTargetCount), `pct`
 * (radius.percentage), `maximum` (radius.maximum), `targetType`, each step parameter (`param:<name>`),
 * the time of the run (`time`) and the emergency stop (`estop`); the step's targets: `listing` and one
 * `attr:<key>` per attribute key a target rule writes (target-classes.ts).
 */
export type DimName = string;

/** How a term reads a dimension: its value, or only whether it is sent (an action step is one that names anything). */
export type Reading = 'full' | 'presence';

/** The rule kinds whose answer is constant on every class (docs/prove.md, "the fragment"). */
export const FRAGMENT_RULES: ReadonlySet<string> = new Set([
  'environments',
  'actions',
  'targets',
  'timeWindow',
  'parameters',
  'emergencyStop',
  'targetAttributes',
]);

const SCOPE_DIMS: Readonly<Record<string, readonly DimName[]>> = {
  teams: ['team'],
  environments: ['env'],
  experimentKeys: ['key'],
  createdVia: ['via'],
  experimentVersions: ['version'],
  actionIds: ['actionId'],
  actionKinds: ['actionKind'],
  // Who started the run: its globs match execution.createdBy.username or .email (engine/scope.ts).
  createdBy: ['starter', 'starterEmail'],
};
const STEP_FIELDS = new Set(['actionIds', 'actionKinds']);
/** What makes the step an action step, a targeted one (engine/action-steps.ts, core/targeted-step.ts). */
const STEP_SHAPE: readonly DimName[] = ['actionId', 'count', 'pct', 'maximum', 'targetType'];

/**
 * One rule of one enforcing policy, decided alone: the policy with only this rule (its scope and its
 * exceptions kept) in a bundle of its own. For a run of one action step, the set denies exactly
 * when one of its terms does (docs/decisions/0020-prove-by-classes.md), so the analysis searches
 * terms, and every answer it prints is decided again with the whole set.
 */
export interface Term {
  /** `production-guardrails rules[2].targets`. */
  label: string;
  policy: string;
  /** Identity across sets: the same key decides every run alike (the policy's scope, the rule, its exceptions, the aliases). */
  key: string;
  reads: ReadonlyMap<DimName, Reading>;
  /** Why the term is outside the fragment, or undefined when its answer is constant on every class. */
  outside?: string;
  bundle: PolicyBundle;
  /** The term is true when its policy applies to the run (a property's scope), not when it denies. */
  applies?: boolean;
  /** Why its answer on a run of several action steps may not follow from its one-step projections (steps.ts). */
  coupled?: string;
  /** Its targets rule's totals across steps, searched by repeating a step (steps.ts). */
  totals?: Totals;
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** The team facts a scope's `createdByTeams` reads are a dimension per team (`members:<team>`), with the starter. */
export const MEMBERS = 'members:';
const teamDims = (teams: unknown): DimName[] => [
  'starter',
  'starterEmail',
  ...asList(teams).map((t) => `${MEMBERS}${String(t)}`),
];

/** The dimensions a `match:`/`exclude:` reads, and whether it filters steps; `outside` for fields beyond the fragment. */
function scopeReads(scope: unknown, reads: Map<DimName, Reading>): { steps: boolean; outside?: string } {
  let steps = false;
  let outside: string | undefined;
  for (const field of Object.keys(asObject(scope))) {
    const dims = field === 'createdByTeams' ? teamDims(asObject(scope)[field]) : SCOPE_DIMS[field];
    if (dims === undefined)
      outside ??= `${field} (${field === 'ownedBy' ? "the targets' owners" : 'who started the run'}) is not analysed`;
    else for (const dim of dims) reads.set(dim, 'full');
    if (STEP_FIELDS.has(field)) steps = true;
  }
  return { steps, outside };
}

function ruleReads(kind: string, spec: unknown, reads: Map<DimName, Reading>): void {
  const full = (d: DimName) => reads.set(d, 'full');
  switch (kind) {
    case 'environments':
      full('env');
      break;
    case 'actions':
      full('actionId');
      full('actionKind');
      break;
    case 'targets': {
      // Only what the spec compares: a cap reads the count, maxPercentage the percentage and whether
      // a maximum is set, perType the target type; whether the step is targeted reads its kind.
      const t = asObject(spec);
      const perType = t.perType !== undefined;
      if (t.maxPerStep !== undefined || t.maxTotal !== undefined || perType || t.denyEmpty === true) full('count');
      if (t.maxPercentage !== undefined) full('pct');
      if (t.maxPercentage !== undefined || t.requireMaximum === true) full('maximum');
      if (perType) full('targetType');
      full('actionKind');
      break;
    }
    case 'timeWindow':
      full('time');
      break;
    case 'parameters':
      for (const name of Object.keys(asObject(spec))) full(`param:${name}`);
      break;
    case 'emergencyStop':
      full('estop');
      break;
    case 'targetAttributes':
      targetRuleReads(spec, reads);
      full('actionKind');
      break;
  }
}

const isStepRule = (kind: string) =>
  kind === 'actions' || kind === 'targets' || kind === 'parameters' || kind === 'targetAttributes';

/** The terms of a set: one per rule of each enforcing policy (warn and audit policies never deny). */
export function termsOf(set: PolicySet): Term[] {
  const { bundle } = set;
  const out: Term[] = [];
  const aliasKey = JSON.stringify(Object.entries(set.aliases).sort());
  for (const policy of bundle.policies) {
    if (policy.mode !== 'enforce') continue;
    if (policy.source.file === BUILT_IN_FILE) {
      out.push(builtInTerm(policy, bundle));
      continue;
    }
    const doc = set.policies.get(policy.name) ?? {};
    const exceptions = set.exceptions.filter((e) => e.policy === policy.name);
    const scopeDims = new Map<DimName, Reading>();
    const match = scopeReads(doc.match, scopeDims);
    const exclude = scopeReads(doc.exclude, scopeDims);
    let outside = match.outside ?? exclude.outside;
    let stepFilter = match.steps || exclude.steps;
    for (const e of exceptions) {
      const r = scopeReads(e.match, scopeDims);
      stepFilter ||= r.steps;
      scopeDims.set('time', 'full'); // an exception expires
      if (r.outside) outside ??= `exception "${String(e.name)}": ${r.outside}`;
      if (e.maxUses !== undefined)
        outside ??= `exception "${String(e.name)}" has maxUses (its use count is not analysed)`;
      if (asObject(set.exceptionSettings).approverNotStarter === true)
        outside ??= 'ExceptionSettings.approverNotStarter compares the approver with who started the run';
    }
    const rules = asList(doc.rules);
    policy.rules.forEach((rule, i) => {
      const spec = asObject(rules[i])[rule.kind];
      const reads = new Map(scopeDims);
      ruleReads(rule.kind, spec, reads);
      if (stepFilter || isStepRule(rule.kind))
        for (const d of [...STEP_SHAPE, 'actionKind']) if (!reads.has(d)) reads.set(d, 'presence');
      const why =
        outside ?? (FRAGMENT_RULES.has(rule.kind) ? undefined : `rule kind ${rule.kind} is beyond the analysis`);
      const only: CompiledPolicy = { ...policy, rules: [rule], modifications: [] };
      out.push({
        label: `${policy.name} ${rule.path}`,
        policy: policy.name,
        key: JSON.stringify([doc.match, doc.exclude, rule.kind, spec, exceptions, set.exceptionSettings, aliasKey]),
        reads,
        outside: why,
        bundle: assembleBundle({ ...bundle, policies: [only] }),
        coupled: stepCoupling(rule.kind, spec, exceptions),
        totals: totalsOf(rule.kind, spec, only, rule.path, bundle),
      });
    });
  }
  return out;
}

function builtInTerm(policy: CompiledPolicy, bundle: PolicyBundle): Term {
  return {
    label: policy.name,
    policy: policy.name,
    key: `built-in:${policy.name}`,
    reads: new Map([['estop', 'full']]),
    bundle: assembleBundle({ ...bundle, policies: [policy] }),
  };
}

/** Every text a set writes in the dimension's scope fields and rules: where its classes come from. */
export function writtenValues(docs: readonly Doc[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (dim: string, values: unknown) => {
    const list = out.get(dim) ?? [];
    for (const v of asList(values)) if (typeof v === 'string' || typeof v === 'number') list.push(String(v));
    out.set(dim, list);
  };
  const scope = (s: unknown) => {
    for (const [field, values] of Object.entries(asObject(s))) {
      for (const dim of SCOPE_DIMS[field] ?? []) add(dim, values);
    }
  };
  for (const doc of docs) {
    scope(doc.match);
    scope(doc.exclude);
    for (const rule of asList(doc.rules)) {
      for (const [kind, spec] of Object.entries(asObject(rule))) {
        const s = asObject(spec);
        if (kind === 'environments') {
          add('env', s.blocked);
          add('env', s.allowed);
        } else if (kind === 'actions') {
          add('actionId', s.blocked);
          add('actionId', s.allowed);
          add('actionKind', s.blockedKinds);
          add('actionKind', s.allowedKinds);
        } else if (kind === 'targets') {
          add('targetType', Object.keys(asObject(s.perType)));
        }
      }
    }
  }
  return out;
}

/**
 * A policy without rules as a term that "denies" every run its scope takes in: what a property's
 * `never:` block with only `match`/`exclude` describes (Judge asks its policy whether it applied).
 */
export function appliesTerm(doc: Doc, bundle: PolicyBundle, label: string): Term {
  const reads = new Map<DimName, Reading>();
  const match = scopeReads(doc.match, reads);
  const exclude = scopeReads(doc.exclude, reads);
  if (match.steps || exclude.steps)
    for (const d of [...STEP_SHAPE, 'actionKind']) if (!reads.has(d)) reads.set(d, 'presence');
  return {
    label,
    policy: String(doc.name),
    key: JSON.stringify(['applies', doc.match, doc.exclude]),
    reads,
    outside: match.outside ?? exclude.outside,
    bundle,
    applies: true,
  };
}

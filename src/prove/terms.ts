import type { CompiledPolicy, CompiledRule, PolicyBundle } from '../policy/core/compiled';
import { assembleBundle } from '../policy/compile/assemble-bundle';
import { BUILT_IN_FILE } from '../policy/compile/built-in-policies';
import { ruleOf } from '../policy/core/shapes';
import { targetsRule } from '../policy/rules/targets';
import { fillsEnvironment } from '../policy/signals/placeholder-text';
import { compileScope } from '../policy/engine/scope';
import type { Doc, PolicySet } from './policy-set';
import { groupCoupling, groupRuleReads } from './group-terms';
import { signalReads } from './signal-classes';
import { readsAttackedServices, stateReads } from './state-classes';
import { overlapReads } from './overlap-classes';
import { useDim } from './use-classes';
import { targetRuleReads } from './target-classes';
import { mutingActionGlobs, mutingReads } from './muting-classes';
import { PREDICATE, predicateReads } from './predicate-classes';
import { isLiteralText } from './value-classes';
import type { DimName, Reading, Term, Totals } from './term-types';

/** The rule kinds whose answer is constant on every class (docs/prove.md, "the fragment"). */
export const FRAGMENT_RULES: ReadonlySet<string> = new Set([
  'environments',
  'actions',
  'targets',
  'timeWindow',
  'parameters',
  'emergencyStop',
  'targetAttributes',
  'prometheus',
  'alerts',
  'concurrency',
  'quota',
  'cooldown',
  'perGroup',
  'blastRadius',
  'noMuting',
  'noOverlap',
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
const STEP_SHAPE: readonly DimName[] = ['actionId', 'count', 'pct', 'maximum', 'targetType', PREDICATE];

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** Whether the set wants a second person: an exception does not waive a run its approver started. */
const approverNotStarter = (set: PolicySet): boolean => asObject(set.exceptionSettings).approverNotStarter === true;

/** An exception's approvedBy as the engine compares it with the starter (trimmed; case is ignored there). */
const approverOf = (e: Doc): string | undefined => (typeof e.approvedBy === 'string' ? e.approvedBy.trim() : undefined);

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
    case 'blastRadius':
      predicateReads(reads);
      break;
    case 'noMuting':
      mutingReads(spec, reads);
      break;
  }
}

const STEP_RULES: ReadonlySet<string> = new Set([
  'actions',
  'targets',
  'parameters',
  'targetAttributes',
  'blastRadius',
  'noMuting',
  // Which steps are targeted and whether they list their targets (core/targeted-step.ts, engine/run-footprint.ts).
  'noOverlap',
]);
const isStepRule = (kind: string) => STEP_RULES.has(kind);

/** Whether an exception's match picks steps (actionIds, actionKinds): it then reaches a violation only on steps it matches. */
const scopedToSteps = (e: Doc) => {
  const match = asObject(e.match);
  return match.actionIds !== undefined || match.actionKinds !== undefined;
};

/** Where a targets rule sums the counts of all steps in scope: `maxTotal`, `perType["x"].maxTotal`. */
function totals(spec: Doc): string[] {
  const out = spec.maxTotal === undefined ? [] : ['maxTotal'];
  for (const [type, caps] of Object.entries(asObject(spec.perType)))
    if (asObject(caps).maxTotal !== undefined) out.push(`perType["${type}"].maxTotal`);
  return out;
}

/**
 * Rules whose finding about the run names no step although a step of it causes it: `noOverlap`
 * (the runs in progress a step shares targets with) and a cool-down per service (a service a step
 * attacks). The finding is in a one-step projection only when that step is: an exception scoped to
 * steps then waives the projection but not the whole run (engine/evaluate-policy.ts, reaches).
 */
const findsAcrossSteps = (kind: string, spec: unknown): boolean =>
  kind === 'noOverlap' || (kind === 'cooldown' && asObject(spec).per === 'service');

/**
 * Why a term (one rule of a policy, with the policy's exceptions) may deny a run of several action
 * steps that none of its one-step projections is denied by, or undefined when it cannot: its rule
 * sums the targets of all steps (a total each step stays under), or two of the policy's exceptions
 * are scoped to steps (each may waive every projection, neither the whole run).
 */
export function stepCoupling(kind: string, spec: unknown, exceptions: readonly Doc[]): string | undefined {
  const why: string[] = [];
  const grouped = groupCoupling(kind, spec);
  if (grouped) why.push(grouped);
  const summed = kind === 'targets' ? totals(asObject(spec)) : [];
  if (summed.length > 0)
    why.push(`its ${summed.join(' and ')} sums the targets of all the run's steps in scope, which no one step shows`);
  const scoped = exceptions.filter(scopedToSteps).map((e) => `"${String(e.name)}"`);
  if (scoped.length > 1)
    why.push(
      `exceptions ${scoped.join(', ')} each match only some steps (actionIds/actionKinds): one waives only when it matches every violating step, so which waives depends on the run's other steps`,
    );
  else if (scoped.length === 1 && findsAcrossSteps(kind, spec))
    why.push(
      `its finding (${kind === 'noOverlap' ? 'a run in progress sharing targets' : 'a service cooling down'}) names no step, and exception ${scoped[0]} matches only some steps (actionIds/actionKinds): it waives such a finding only when it matches every step in scope, so whether it does depends on the run's other steps`,
    );
  return why.length === 0 ? undefined : why.join('; and ');
}

/** The totals of a targets rule (`maxTotal`, `perType[...].maxTotal`), or undefined when it has none. */
export function totalsOf(
  kind: string,
  spec: unknown,
  policy: CompiledPolicy,
  path: string,
  bundle: PolicyBundle,
): Totals | undefined {
  if (kind !== 'targets') return undefined;
  const caps: number[] = [];
  const counted = (c: Doc): Doc => {
    if (typeof c.maxTotal !== 'number') return c;
    caps.push(c.maxTotal);
    const { maxTotal: _, ...rest } = c;
    return { ...rest, maxPerStep: 0 };
  };
  const s = asObject(spec);
  const perType = Object.entries(asObject(s.perType)).map(([type, c]) => [type, counted(asObject(c))]);
  const variant = { ...counted(s), ...(perType.length > 0 ? { perType: Object.fromEntries(perType) } : {}) };
  if (caps.length === 0) return undefined;
  const rule = ruleOf({ kind, path, ...targetsRule.compile(variant as never) });
  return { caps, counted: assembleBundle({ ...bundle, policies: [{ ...policy, rules: [rule], modifications: [] }] }) };
}

/**
 * What the aliases mean to a rule whose documents list these environments (docs/decisions/0044):
 * the engine gives a run's environment a listed name through an alias only when the value sent (or
 * its Steadybit name) is one of the ids of an alias the documents list (engine/environments.ts,
 * isListed), so two alias documents giving those aliases the same ids decide every run alike for it.
 */
export function aliasesRead(aliases: Readonly<Record<string, string[]>>, docs: readonly Doc[]): string[] {
  const listed = new Set((writtenValues(docs).get('env') ?? []).map((e) => e.toLowerCase()));
  const ids = new Set<string>();
  for (const [alias, list] of Object.entries(aliases))
    if (listed.has(alias.toLowerCase())) for (const id of list) ids.add(String(id).toLowerCase());
  return [...ids].sort();
}

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
      // How often it has waived a run (use-classes.ts): it waives while under its maxUses.
      if (e.maxUses !== undefined) scopeDims.set(useDim(String(e.name)), 'full');
      if (approverNotStarter(set)) {
        // It waives only a run its approver did not start: the starter read against the approver.
        scopeDims.set('starter', 'full');
        scopeDims.set('starterEmail', 'full');
        const approver = approverOf(e);
        if (approver !== undefined && !isLiteralText(approver))
          outside ??= `exception "${String(e.name)}": its approvedBy "${approver}" is compared with who started the run, and it holds characters a glob reads (the analysis splits the starter by globs)`;
      }
    }
    const rules = asList(doc.rules);
    const scope = scopeTerm(doc, policy, bundle, match.steps || exclude.steps);
    const waiver =
      exceptions.length > 0 && outside === undefined
        ? waiverTerm(policy, bundle, exceptions, approverNotStarter(set))
        : undefined;
    policy.rules.forEach((rule, i) => {
      const spec = asObject(rules[i])[rule.kind];
      const reads = new Map(scopeDims);
      ruleReads(rule.kind, spec, reads);
      const signal =
        signalReads(rule.kind, spec, reads) ??
        stateReads(rule.kind, spec, reads) ??
        overlapReads(rule.kind, spec, reads) ??
        groupRuleReads(rule.kind, spec, reads);
      if (stepFilter || isStepRule(rule.kind) || readsAttackedServices(rule.kind, spec))
        for (const d of [...STEP_SHAPE, 'actionKind']) if (!reads.has(d)) reads.set(d, 'presence');
      const why =
        outside ??
        (signal === undefined ? undefined : `${rule.kind} ${signal}`) ??
        (FRAGMENT_RULES.has(rule.kind) ? undefined : `rule kind ${rule.kind} is beyond the analysis`);
      const only: CompiledPolicy = { ...policy, rules: [rule], modifications: [] };
      const termDocs: Doc[] = [{ match: doc.match, exclude: doc.exclude, rules: [rules[i]] }, ...exceptions];
      // With exceptions, the rule alone is decided apart from whether they waive the run (waiverTerm).
      const alone = ruleAlone(rule.kind, spec, only, bundle, `${policy.name} ${rule.path}`);
      out.push({
        label: `${policy.name} ${rule.path}`,
        policy: policy.name,
        key: JSON.stringify([
          doc.match,
          doc.exclude,
          rule.kind,
          spec,
          exceptions,
          set.exceptionSettings,
          // An analysed rule reads the aliases only through the names its documents list; any other
          // rule (a json-logic condition reads every alias of the run's environments) reads them all.
          why === undefined ? aliasesRead(set.aliases, termDocs) : aliasKey,
          // {{environment}} is filled with the names the whole set spells environments by.
          ...(fillsEnvironment(JSON.stringify(spec ?? null)) ? [[...bundle.environmentNames]] : []),
        ]),
        reads,
        outside: why,
        bundle: withNamesOf(bundle, assembleBundle({ ...bundle, policies: [only] })),
        coupled: stepCoupling(rule.kind, spec, exceptions),
        totals: totalsOf(rule.kind, spec, only, rule.path, bundle),
        docs: termDocs,
        scope,
        rule: { ...alone, docs: [{ rules: [rules[i]] }] },
        ...(waiver ? { waiver } : {}),
      });
    });
  }
  return out;
}

/**
 * A term's bundle with its whole set's environment names: `{{environment}}` is filled with the names
 * every policy's scope spells (assembleBundle would read only the term's own policy).
 */
const withNamesOf = (set: PolicyBundle, term: PolicyBundle): PolicyBundle =>
  Object.freeze({ ...term, environmentNames: set.environmentNames });

/**
 * A policy's scope as a term of its own: its policy without rules, true where the engine does not
 * skip it (engine/evaluate-policy.ts, policyScope: the match, the exclude and the steps they leave).
 * No rule of the policy is checked, so none denies, where it is false.
 */
function scopeTerm(doc: Doc, policy: CompiledPolicy, bundle: PolicyBundle, stepFilter: boolean): Term {
  const reads = new Map<DimName, Reading>();
  scopeReads(doc.match, reads);
  scopeReads(doc.exclude, reads);
  if (stepFilter) for (const d of [...STEP_SHAPE, 'actionKind']) if (!reads.has(d)) reads.set(d, 'presence');
  return {
    label: `${policy.name} (its scope)`,
    policy: policy.name,
    key: JSON.stringify(['scope', doc.match, doc.exclude]),
    reads,
    // Without exceptions: where the scope cannot decide, its policy's undecided violation is not waived here.
    bundle: withNamesOf(
      bundle,
      assembleBundle({ ...bundle, policies: [{ ...policy, rules: [], modifications: [] }], exceptions: [] }),
    ),
    applies: true,
    docs: [{ match: doc.match, exclude: doc.exclude }],
  };
}

/** A rule that finds a violation on every run: its policy then denies exactly where no exception waives it. */
const ALWAYS: CompiledRule = {
  kind: 'prove-waiver',
  path: 'rules[0]',
  check: () => ({ found: [{ reason: 'denied, unless an exception waives it (prove)' }] }),
};

/**
 * Whether a policy's exceptions leave a run unwaived, as a term (docs/decisions/0044): the policy
 * without scope, with a rule that always denies and the set's exceptions, denies exactly where none
 * of them waives. On a run of at most one action step, whether an exception reaches a policy's
 * violations does not depend on which they are (evaluate-policy.ts, reaches: its match, and with a
 * step filter the one step, which every violation is on or about), nor does what keeps it from
 * waiving (expired: waiverBlocker); so the policy with one rule denies exactly where its scope takes
 * the run in and the rule alone denies, or its scope cannot decide, and this term denies too.
 */
function waiverTerm(
  policy: CompiledPolicy,
  bundle: PolicyBundle,
  exceptions: readonly Doc[],
  secondPerson: boolean,
): Term {
  const reads = new Map<DimName, Reading>([['time', 'full']]);
  let steps = false;
  for (const e of exceptions) {
    steps = scopeReads(e.match, reads).steps || steps;
    if (e.maxUses !== undefined) reads.set(useDim(String(e.name)), 'full');
  }
  if (secondPerson) for (const d of ['starter', 'starterEmail']) reads.set(d, 'full');
  if (steps) for (const d of [...STEP_SHAPE, 'actionKind']) if (!reads.has(d)) reads.set(d, 'presence');
  const unscoped: CompiledPolicy = {
    ...policy,
    matchSpec: undefined,
    match: compileScope(undefined, false),
    exclude: compileScope(undefined, true),
    rules: [ALWAYS],
    modifications: [],
  };
  return {
    label: `${policy.name} (its exceptions)`,
    policy: policy.name,
    key: JSON.stringify(['waiver', exceptions]),
    reads,
    bundle: withNamesOf(bundle, assembleBundle({ ...bundle, policies: [unscoped] })),
    docs: exceptions,
  };
}

/** A rule in a policy of its own without scope or exceptions: what it reads is what the rule reads. */
function ruleAlone(kind: string, spec: unknown, only: CompiledPolicy, bundle: PolicyBundle, label: string): Term {
  const reads = new Map<DimName, Reading>();
  ruleReads(kind, spec, reads);
  signalReads(kind, spec, reads) ??
    stateReads(kind, spec, reads) ??
    overlapReads(kind, spec, reads) ??
    groupRuleReads(kind, spec, reads);
  if (isStepRule(kind) || readsAttackedServices(kind, spec))
    for (const d of [...STEP_SHAPE, 'actionKind']) if (!reads.has(d)) reads.set(d, 'presence');
  const unscoped = {
    ...only,
    matchSpec: undefined,
    match: compileScope(undefined, false),
    exclude: compileScope(undefined, true),
  };
  return {
    label: `${label} (the rule alone)`,
    policy: only.name,
    key: JSON.stringify([
      'alone',
      kind,
      spec,
      ...(fillsEnvironment(JSON.stringify(spec ?? null)) ? [[...bundle.environmentNames]] : []),
    ]),
    reads,
    bundle: withNamesOf(bundle, assembleBundle({ ...bundle, policies: [unscoped], exceptions: [] })),
  };
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
    // An approver is compared with the starter's username and email (ExceptionSettings.approverNotStarter).
    const approver = approverOf(doc);
    if (doc.kind === 'Exception' && approver !== undefined && isLiteralText(approver)) {
      add('starter', [approver]);
      add('starterEmail', [approver]);
    }
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
        } else if (kind === 'noMuting') {
          add('actionId', mutingActionGlobs([{ rules: [rule] }]));
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

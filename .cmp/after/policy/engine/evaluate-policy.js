"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.baseValues = baseValues;
exports.policyScope = policyScope;
exports.evaluatePolicy = evaluatePolicy;
const evaluation_context_1 = require("../core/evaluation-context");
const memo_1 = require("../core/memo");
const policy_texts_1 = require("./policy-texts");
const waiver_blocker_1 = require("./waiver-blocker");
const TEMPLATE_VALUES = (0, memo_1.memoKey)('message and modification placeholders');
const STEP_LABELS = (0, memo_1.memoKey)("the run's action steps as skip reasons list them");
/** Template values of a request, computed once however many policies render or modify. */
function baseValues(ctx) {
    return ctx.memo.get(TEMPLATE_VALUES, () => templateValuesOf(ctx));
}
function templateValuesOf(ctx) {
    return {
        experimentKey: ctx.execution.experimentKey,
        team: ctx.execution.teamKey,
        environment: ctx.environments.map((e) => e.value).join(' / ') || undefined,
        executionId: ctx.execution.id === undefined ? undefined : String(ctx.execution.id),
        decisionId: ctx.decisionId,
        revision: ctx.revision,
        now: (0, evaluation_context_1.nowText)(ctx),
    };
}
/**
 * A rule's violations for these steps. Checks are pure and shared by policies with the same rule spec,
 * so for the run's whole list of steps the first policy's answer serves the others, kept in the
 * decision's context at the rule's answerSlot (never on the compiled rule). A check that throws is
 * not asked again in the decision: every policy sharing it gets the same error.
 */
function checkedOf(rule, ctx, steps) {
    const slot = rule.answerSlot;
    if (slot === undefined || steps !== ctx.actionSteps)
        return rule.check({ ctx, steps });
    let answer = ctx.ruleAnswers[slot];
    // A slot holds one check's answer; a rule not numbered with it (built by hand, not by
    // assembleBundle) is asked itself, never given another check's answer.
    if (answer !== undefined && answer.check !== rule.check)
        return rule.check({ ctx, steps });
    if (answer === undefined) {
        try {
            answer = { check: rule.check, ok: true, checked: rule.check({ ctx, steps }) };
        }
        catch (failure) {
            answer = { check: rule.check, ok: false, failure };
        }
        ctx.ruleAnswers[slot] = answer;
    }
    if (!answer.ok)
        throw answer.failure;
    return answer.checked;
}
/** What a policy whose rules found and read nothing gets: shared, never written to (most policies of a decision pass). */
const NONE_FOUND = Object.freeze({ violations: Object.freeze([]), reads: undefined });
/** The violations of the policy's rules and what they read; the lists are only built once a rule finds or reads something. */
function checkRules(policy, ctx, steps) {
    let violations;
    let reads;
    for (const rule of policy.rules) {
        try {
            const { found, read } = checkedOf(rule, ctx, steps);
            // Most checks find nothing: the loop is skipped (over their shared frozen empty list, for...of
            // went through V8's generic array iterator, counted under callgrind on Node 20; on Node 26.12.1
            // still 5x the guarded loop: docs/decisions/0025-engine-comments-on-node-26.md).
            if (found.length > 0)
                for (const violation of found)
                    (violations ??= []).push({ rule: rule.path, violation });
            if (read !== undefined)
                (reads ??= []).push(...read);
        }
        catch (err) {
            // Fail closed: a rule that throws cannot decide, and that counts against the run.
            (violations ??= []).push({
                rule: rule.path,
                violation: {
                    reason: `cannot decide: rule ${rule.path} failed (${err instanceof Error ? err.message : String(err)})`,
                    status: 'undecidable',
                },
            });
        }
    }
    return violations === undefined && reads === undefined
        ? NONE_FOUND
        : { violations: violations ?? NONE_FOUND.violations, reads };
}
/** The run's template values with the policy's name: a modification's values, and the start of a message's. */
function policyValues(policy, ctx) {
    return { ...baseValues(ctx), policy: policy.name };
}
function render(policy, { violation: v }, ctx) {
    if (!policy.message)
        return v.reason;
    const values = policyValues(policy, ctx);
    values.reason = v.reason;
    values.step = v.step?.label;
    values.target = v.target;
    values.value = v.value;
    return policy.message(values);
}
/** The explanation of one violation; only what the rule said is included, its status as its flag. */
function findingOf({ rule, violation: v }) {
    const found = { rule, reason: v.reason };
    if (v.step)
        found.step = v.step.label;
    if (v.target !== undefined)
        found.target = v.target;
    if (v.value !== undefined)
        found.value = v.value;
    if (v.status === 'undecidable')
        found.undecidable = true;
    else if (v.status === 'advisory')
        found.advisory = true;
    if (v.signal)
        found.signal = v.signal;
    return found;
}
const labelsOf = (steps) => steps.map((s) => `${s.label} (${s.step.actionKind ?? 'kind unknown'})`).join(', ') || 'none';
/** The steps as skip reasons list them; the run's own steps are listed once per request. */
const stepLabels = (steps, ctx) => steps === ctx.actionSteps ? ctx.memo.get(STEP_LABELS, () => labelsOf(steps)) : labelsOf(steps);
/** The action steps the policy's step filters leave, or why none is left (a text: the policy is then skipped). */
function scopedSteps(policy, ctx) {
    let steps = ctx.actionSteps;
    if (policy.match.hasStepFilter) {
        const matched = steps.filter((s) => policy.match.stepMatches(s));
        if (matched.length === 0)
            return `no action step matches ${policy.match.stepFilterText}; the run's action steps: ${stepLabels(steps, ctx)}`;
        steps = matched;
    }
    // Fields are AND-ed: the exclude's steps are left out only of runs its run-level fields are known to match.
    if (policy.exclude.hasStepFilter && policy.exclude.runCovered(ctx)) {
        const left = steps.filter((s) => !policy.exclude.stepMatches(s));
        if (left.length === 0 && steps.length > 0)
            return `every action step in scope is excluded by ${policy.exclude.stepFilterText}: ${stepLabels(steps, ctx)}`;
        steps = left;
    }
    return steps;
}
/**
 * Whether the exception reaches every violation: the run is known to be in its match (unknown never
 * widens a waiver) and, with a step filter, each violation's step is known to match it; a violation
 * about no step in particular is reached only when every step in scope matches.
 */
function reaches(e, ctx, steps, violations) {
    if (!e.match.runCovered(ctx))
        return false;
    if (!e.match.hasStepFilter)
        return true;
    return (steps.some((s) => e.match.stepCovered(s)) &&
        violations.every(({ violation: v }) => v.step ? e.match.stepCovered(v.step) : steps.every((s) => e.match.stepCovered(s))));
}
/** The exception that waives this policy for this run now; one expired, used up or of unknown use never does (its note says why). */
function waiverFor(policy, ctx, steps, violations, exceptions) {
    const named = exceptions.get(policy.name);
    if (named === undefined)
        return { live: undefined, expiredNote: [] };
    const reaching = named.filter((e) => reaches(e, ctx, steps, violations));
    const live = reaching.find((e) => (0, waiver_blocker_1.waiverBlocker)(e, ctx) === undefined);
    // An exception kept from the run only by team members that cannot be read never waives it, and
    // the person who counts on it is told why (unknown never widens a waiver).
    const passedOver = named.flatMap((e) => {
        const why = reaching.includes(e) ? undefined : e.match.membersUnread(ctx);
        return why === undefined ? [] : [`exception "${e.name}" does not waive this run: ${why}`];
    });
    return {
        live,
        expiredNote: [
            ...reaching.map((e) => (0, waiver_blocker_1.waiverBlocker)(e, ctx)).filter((note) => note !== undefined),
            ...passedOver,
        ],
    };
}
/** The result every outcome starts from; deny/warn/audit and waivers add their explanation after `source`. */
function resultOf(policy, kind, reasons) {
    return {
        policy: policy.name,
        mode: policy.mode,
        priority: policy.priority,
        result: kind,
        reasons,
        source: policy.source,
    };
}
const skipped = (policy, why) => ({
    result: resultOf(policy, 'skipped', [why]),
    modifications: policy_texts_1.NO_MODIFICATIONS,
});
/** Whether one of the run's environments has a name that cannot be known (Platform API configured, name unknown). */
function hasUnknownName(environments) {
    for (const e of environments)
        if (e.unknownName !== undefined)
            return true;
    return false;
}
/**
 * The rules' violations, after a cannot-decide when the run's place in the policy's scope depends on
 * an environment name that cannot be known (Platform API configured, name unknown) or on team
 * members that cannot be read (createdByTeams): the policy then cannot decide, as a rule that cannot would.
 */
function withUndecidedScope(policy, ctx, violations) {
    if (!policy.match.readsMembers &&
        !policy.exclude.readsMembers &&
        policy.match.owningTeam === undefined &&
        // The run's one or two environments: asking them is cheaper than a memo.
        !hasUnknownName(ctx.environments))
        return violations;
    const undecided = policy.match.undecided(ctx) ?? policy.exclude.undecided(ctx);
    if (undecided === undefined)
        return violations;
    return [{ rule: undecided.field, violation: { reason: undecided.reason, status: 'undecidable' } }, ...violations];
}
/**
 * Why the run is outside the scope, if it is. Asked per policy, not kept per scope: its fields'
 * tests (set lookups, compiled globs) cost less than a memo of the answer did; whether the starter
 * is in a createdByTeams team, the one scan, is kept per team in the memo (scope.ts).
 */
const missOf = (scope, ctx) => scope.narrowsRun ? scope.runMiss(ctx) : undefined;
/**
 * The action steps of the run the policy applies to, or why it does not apply (a text: the run is
 * outside its match or exclude scope, or no step is left in it). Its rules are checked only when
 * it applies: replay asks this to know which facts a run's decision reads (redecide.ts).
 */
function policyScope(policy, ctx) {
    return missOf(policy.match, ctx) ?? missOf(policy.exclude, ctx) ?? scopedSteps(policy, ctx);
}
/** Evaluates one policy against the run: its answer depends on nothing else (shared checks' answers are kept in the context); never throws for a rule's failure. */
function evaluatePolicy(policy, ctx, exceptions) {
    const steps = policyScope(policy, ctx);
    if (typeof steps === 'string')
        return skipped(policy, steps);
    const { violations: found, reads: signals } = checkRules(policy, ctx, steps);
    const violations = withUndecidedScope(policy, ctx, found);
    const outcome = judged(policy, ctx, steps, violations, exceptions);
    return signals === undefined
        ? outcome
        : { result: { ...outcome.result, signals }, modifications: outcome.modifications };
}
function judged(policy, ctx, steps, violations, exceptions) {
    if (violations.length === 0)
        return policy.modifications.length === 0
            ? policy.passed
            : { result: policy.passed.result, modifications: contribute(policy, ctx) };
    const findings = violations.map(findingOf);
    const message = withOwnedTargets(policy, ctx, violations.map((v) => render(policy, v, ctx)));
    const { live, expiredNote } = waiverFor(policy, ctx, steps, violations, exceptions);
    if (live) {
        const why = `waived by exception "${live.name}" (owner ${live.owner}, until ${live.expires.toISOString()}${(0, waiver_blocker_1.useText)(live, ctx)}: ${live.reason}); would have denied: ${message}`;
        return {
            result: Object.assign(resultOf(policy, 'skipped', [why]), { exception: live.name, findings }),
            modifications: policy_texts_1.NO_MODIFICATIONS,
        };
    }
    // Advisory findings alone (a signal source away, onUnavailable: allow) warn instead of denying.
    const kind = policy.mode !== 'enforce'
        ? policy.mode
        : violations.every((v) => v.violation.status === 'advisory')
            ? 'warn'
            : 'deny';
    const owned = policy.match.ownedReached?.(ctx);
    const reasons = violations.map((v) => v.violation.reason).concat(owned === undefined ? [] : [owned], expiredNote);
    // Why a waiver the user may count on did not apply (expired, used up) is said where they look.
    const said = expiredNote.length === 0 ? message : `${message} (${expiredNote.join('; ')})`;
    return {
        result: Object.assign(resultOf(policy, kind, reasons), { message: said, findings }),
        modifications: kind === 'deny' ? policy_texts_1.NO_MODIFICATIONS : contribute(policy, ctx),
    };
}
/**
 * The denial's parts, joined, and for a policy an owning team keeps (`match.ownedBy`), what the run
 * reaches of that team's targets and who may approve an exception: whoever started the run, the
 * person it stops learns whose targets these are.
 */
function withOwnedTargets(policy, ctx, parts) {
    const owned = policy.match.ownedReached?.(ctx);
    return (owned === undefined ? parts : [...parts, owned]).join('; ');
}
/** The policy's modifications, rendered for this run (most policies have none: nothing is built for them). */
function contribute(policy, ctx) {
    if (policy.modifications.length === 0)
        return policy_texts_1.NO_MODIFICATIONS;
    const values = policyValues(policy, ctx);
    return policy.modifications.map((m) => ({
        type: m.type,
        propertyKey: m.propertyKey,
        value: m.render(values),
        policy: policy.name,
    }));
}
//# sourceMappingURL=evaluate-policy.js.map
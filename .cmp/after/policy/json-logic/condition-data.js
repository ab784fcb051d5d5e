"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DATA_ROOTS = void 0;
exports.dataNeeds = dataNeeds;
exports.conditionData = conditionData;
const targeted_step_1 = require("../core/targeted-step");
const zone_1 = require("../time/zone");
const memo_1 = require("../core/memo");
const null_prototype_1 = require("./null-prototype");
const PAYLOAD_COPY = (0, memo_1.memoKey)('the payload as conditions read it');
const CONDITION_DATA = (0, memo_1.memoKey)('condition data by steps array');
/** The copy of each request's payload, made once however many conditions read it. */
function payloadCopy(ctx) {
    return ctx.memo.get(PAYLOAD_COPY, () => (0, null_prototype_1.nullPrototypeCopy)(ctx.payload));
}
/** A step's expected target count: `totalTargetCount`, else the targets listed, else 0. */
const targetTotal = (s) => (0, targeted_step_1.targetCount)(s.step)?.count ?? 0;
const targetType = (s) => s.step.radius?.targetType ?? s.step.targetExecutions?.[0]?.type ?? 'unknown';
function targets(steps) {
    const byType = new Map();
    for (const s of steps)
        byType.set(targetType(s), (byType.get(targetType(s)) ?? 0) + targetTotal(s));
    return {
        total: steps.reduce((sum, s) => sum + targetTotal(s), 0),
        byType: [...byType].map(([type, count]) => ({ type, count })),
    };
}
/** The derived data, each built only when an expression reads it. */
const DERIVED = {
    now: (ctx) => ctx.now.toISOString(),
    time: (ctx, _steps, zone) => {
        const local = (0, zone_1.requestLocalTime)(ctx, zone);
        return {
            zone,
            weekday: (0, zone_1.weekdayName)(local),
            isoWeekday: local.weekday,
            hour: local.hour,
            minute: local.minute,
            date: (0, zone_1.localDate)(local),
            local: `${(0, zone_1.localDate)(local)}T${(0, zone_1.localClock)(local)}`,
        };
    },
    environments: (ctx) => ({
        values: ctx.environments.map((e) => e.value),
        names: [...new Set(ctx.environments.flatMap((e) => [...e.keys]))],
    }),
    steps: (ctx, steps) => ({
        count: ctx.execution.steps?.length ?? 0,
        actionCount: steps.length,
        actionIds: steps.flatMap((s) => (s.step.actionId === undefined ? [] : [s.step.actionId])),
        actionKinds: steps.flatMap((s) => (s.step.actionKind === undefined ? [] : [s.step.actionKind])),
        labels: steps.map((s) => s.label),
    }),
    targets: (_facts, steps) => targets(steps),
};
const DERIVED_NAMES = Object.keys(DERIVED);
/** Top-level names of the condition data (docs/policies.md, "condition"). */
exports.DATA_ROOTS = ['payload', 'execution', ...DERIVED_NAMES];
function dataNeeds(zone, roots = 'all') {
    return { zone, roots, key: `${zone}\n${roots === 'all' ? '*' : [...roots].sort().join(',')}` };
}
/**
 * What a request has built, by the steps it was built for (a policy without step filters passes the
 * request's own actionSteps array, so most conditions share one entry), kept in the request's memo.
 * Conditions only read data: json-logic's operations return new values and never write to theirs,
 * so one copy serves them all.
 */
function builtFor(ctx, steps) {
    const bySteps = ctx.memo.get(CONDITION_DATA, () => new Map());
    let built = bySteps.get(steps);
    if (!built)
        bySteps.set(steps, (built = { derived: new Map(), data: new Map() }));
    return built;
}
function derived(ctx, steps, zone, name, built) {
    const key = name === 'time' ? `time ${zone}` : name;
    let value = built.derived.get(key);
    if (value === undefined)
        built.derived.set(key, (value = (0, null_prototype_1.nullPrototypeCopy)(DERIVED[name](ctx, steps, zone))));
    return value;
}
/**
 * What a condition's `var` paths read: the payload (`payload`, `execution`) and data derived
 * from it for the policy's steps and the rule's time zone. Objects have no prototype. Only the
 * roots the expression reads are built, each once per request, and conditions with the same needs
 * get the same data object.
 */
function conditionData(ctx, steps, needs) {
    const built = builtFor(ctx, steps);
    const ready = built.data.get(needs.key);
    if (ready !== undefined)
        return ready;
    const { zone, roots } = needs;
    const wanted = (name) => roots === 'all' || roots.has(name);
    const data = Object.create(null);
    for (const name of DERIVED_NAMES)
        if (wanted(name))
            data[name] = derived(ctx, steps, zone, name, built);
    if (wanted('payload') || wanted('execution')) {
        const payload = payloadCopy(ctx);
        data.payload = payload;
        data.execution = payload.execution ?? null;
    }
    built.data.set(needs.key, data);
    return data;
}
//# sourceMappingURL=condition-data.js.map
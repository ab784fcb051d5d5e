"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.spaceOf = spaceOf;
exports.runOf = runOf;
exports.describeRun = describeRun;
const duration_1 = require("../syntax/duration");
const environments_1 = require("../policy/engine/environments");
const quiet_facts_1 = require("../policy/facts/quiet-facts");
const state_facts_1 = require("../policy/facts/state-facts");
const terms_1 = require("./terms");
const target_classes_1 = require("./target-classes");
const group_classes_1 = require("./group-classes");
const signal_classes_1 = require("./signal-classes");
const state_classes_1 = require("./state-classes");
const time_classes_1 = require("./time-classes");
const value_classes_1 = require("./value-classes");
const asList = (v) => (Array.isArray(v) ? v : []);
const asObject = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {});
function rulesOf(docs, kind) {
    return docs
        .flatMap((d) => asList(d.rules).map((r) => asObject(asObject(r)[kind])))
        .filter((s) => Object.keys(s).length > 0);
}
/**
 * The environment classes: every value written (names, ids, aliases) and one unwritten, alone or with
 * an override, with and without the Platform API's names (a fresh id named like each written name,
 * one whose name cannot be read). Two combinations are one class when, under every set compared,
 * the engine gives the run the same environments as far as any list written can tell (runEnvironments).
 */
function envClasses(docs, bundles, aliases) {
    const listed = new Set(((0, terms_1.writtenValues)(docs).get('env') ?? []).map((e) => e.toLowerCase()));
    for (const a of aliases)
        for (const name of Object.keys(a))
            listed.add(name.toLowerCase());
    const literals = new Set([...listed]);
    for (const a of aliases)
        for (const ids of Object.values(a))
            for (const id of ids)
                literals.add(id);
    literals.add(`${value_classes_1.OTHER}-environment`);
    const values = [...literals];
    const raw = [];
    const second = [undefined, ...values];
    for (const environment of [undefined, ...values])
        for (const override of second)
            if (override !== environment)
                raw.push({ environment, override });
    // With the Platform API: each value sent under a name written (or another), or one it cannot name.
    const facts = [
        ...values.map((name) => ({ name })),
        { unknown: 'the Steadybit Platform API did not answer (prove)' },
    ];
    const fresh = ['prove-environment-id-1', 'prove-environment-id-2'];
    for (const [i, value] of [...values, fresh[0]].entries())
        for (const f of facts) {
            raw.push({ environment: value, names: { [value]: f } });
            for (const o of [...values.filter((_, j) => j !== i), fresh[1]])
                for (const g of facts)
                    raw.push({ environment: value, override: o, names: { [value]: f, [o]: g } });
        }
    const seen = new Map();
    for (const c of raw) {
        const execution = {
            id: 0,
            environment: c.environment,
            overrides: c.override ? { environment: c.override } : undefined,
        };
        const key = JSON.stringify([
            c.environment === undefined,
            ...bundles.map((b) => (0, environments_1.runEnvironments)(execution, b, c.names)
                .map((e) => `${[...e.keys]
                .filter((k) => listed.has(k))
                .sort()
                .join(',')}${e.unknownName ? '?' : ''}`)
                .sort()),
        ]);
        if (!seen.has(key))
            seen.set(key, c);
    }
    return [...seen.values()];
}
function thresholdsOf(docs) {
    const counts = [];
    const pcts = [];
    for (const t of rulesOf(docs, 'targets')) {
        for (const caps of [t, ...Object.values(asObject(t.perType)).map(asObject)])
            for (const k of ['maxPerStep', 'maxTotal'])
                if (typeof caps[k] === 'number')
                    counts.push(caps[k]);
        if (t.denyEmpty === true)
            counts.push(0);
        if (typeof t.maxPercentage === 'number')
            pcts.push(t.maxPercentage);
    }
    const params = new Map();
    for (const p of rulesOf(docs, 'parameters'))
        for (const [name, limit] of Object.entries(p)) {
            const list = params.get(name) ?? [];
            for (const b of [asObject(limit).min, asObject(limit).max]) {
                const n = typeof b === 'number' ? b : typeof b === 'string' ? (0, duration_1.parseDuration)(b) : undefined;
                if (n !== undefined)
                    list.push(n);
            }
            params.set(name, list);
        }
    return { counts, pcts, params };
}
/** The dimensions of every run for these sets, terms and properties (their documents as written). */
function spaceOf(docs, bundles, aliases, terms, exceptions, from) {
    const written = (0, terms_1.writtenValues)(docs);
    const w = (d) => written.get(d) ?? [];
    const { counts, pcts, params } = thresholdsOf(docs);
    const read = new Set(terms.flatMap((t) => [...t.reads.keys()]));
    const classes = (name, c) => ({ name, ...c });
    const whole = (name, values) => ({ name, values, complete: true });
    // Several targets per class where a term counts them together (group-classes.ts), else one.
    const layouts = (0, group_classes_1.layoutsRead)(docs, terms);
    const targets = (0, target_classes_1.targetDims)(docs, layouts !== undefined || terms.some((t) => [...t.reads.keys()].some((d) => d.startsWith(target_classes_1.ATTR))));
    const versions = w('version');
    let fresh = 1;
    while (versions.includes(String(fresh)))
        fresh++;
    const time = (0, time_classes_1.timeClasses)(docs, terms.filter((t) => t.reads.get('time') === 'full'), exceptions, from);
    // Not sent first: a run no term asks about its starter names none (unread dimensions take their first value).
    const absentFirst = (name, c) => ({
        name,
        ...c,
        values: [undefined, ...c.values.filter((v) => v !== undefined)],
    });
    const dims = [
        whole('env', envClasses(docs, bundles, aliases)),
        classes('team', (0, value_classes_1.nameClasses)(w('team'))),
        absentFirst('starter', (0, value_classes_1.globClasses)(w('starter'))),
        absentFirst('starterEmail', (0, value_classes_1.globClasses)(w('starterEmail'))),
        // Each team a createdByTeams names: its members read with the starter among them, without, the
        // Platform API unable to say, or not read at all (no Platform API).
        ...[...new Set(read)]
            .filter((d) => d.startsWith(terms_1.MEMBERS))
            .map((d) => whole(d, [undefined, 'member', 'not-member', 'unknown'])),
        classes('key', (0, value_classes_1.globClasses)(w('key'))),
        classes('via', (0, value_classes_1.nameClasses)(w('via'))),
        whole('version', [...new Set(versions), String(fresh), undefined]),
        classes('actionId', (0, value_classes_1.globClasses)(w('actionId'))),
        classes('actionKind', (0, value_classes_1.nameClasses)(w('actionKind').length > 0 || read.has('actionKind') ? ['ATTACK', ...w('actionKind')] : ['ATTACK'])),
        whole('count', [
            // A layout's targets are as many as its run expects, or fewer (partial), in every count class.
            ...(0, value_classes_1.numberClasses)([...counts, ...(0, group_classes_1.layoutSizes)(layouts)], { integer: true, lo: 0 }),
            undefined,
            ...(targets.listing.length > 1 ? [target_classes_1.EMPTY_UNCOUNTED] : []),
        ]),
        whole('pct', [...(0, value_classes_1.numberClasses)(pcts, { integer: true, lo: 0, hi: 100 }), undefined]),
        whole('maximum', [undefined, 5]),
        classes('targetType', (0, value_classes_1.globClasses)(w('targetType'))),
        whole(target_classes_1.LISTING, targets.listing),
        ...(layouts ? [whole(group_classes_1.LAYOUT, layouts)] : targets.attributes.map(([name, values]) => whole(name, values))),
        ...[...params].map(([name, ts]) => whole(`param:${name}`, [...(0, value_classes_1.numberClasses)(ts, { integer: false }), undefined, 'prove-not-a-value'])),
        whole('time', time.values),
        whole('estop', [false, true]),
    ];
    const signals = (0, signal_classes_1.signalDims)(docs);
    const state = (0, state_classes_1.stateDims)(docs);
    dims.push(...signals, ...state);
    return { dims, index: new Map(dims.map((d, i) => [d.name, i])), horizon: time.horizon, signals, state };
}
/** The run representing an assignment (unassigned dimensions take their first value), with the facts every set compared needs. */
function runOf(space, a, bundles) {
    const v = (name) => {
        const i = space.index.get(name);
        if (i === undefined)
            return undefined;
        const dim = space.dims[i];
        return dim.values[a[i] === undefined || a[i] < 0 ? 0 : a[i]];
    };
    const env = v('env');
    const parameters = {};
    for (const d of space.dims)
        if (d.name.startsWith('param:')) {
            const value = v(d.name);
            if (value !== undefined)
                parameters[d.name.slice('param:'.length)] = value;
        }
    const radius = {};
    for (const [field, dim] of [
        ['targetType', 'targetType'],
        ['percentage', 'pct'],
        ['maximum', 'maximum'],
    ]) {
        const value = v(dim);
        if (value !== undefined)
            radius[field] = value;
    }
    const step = {};
    const put = (target, field, value) => {
        if (value !== undefined)
            target[field] = value;
    };
    put(step, 'actionId', v('actionId'));
    put(step, 'actionKind', v('actionKind'));
    if (Object.keys(parameters).length > 0)
        step.parameters = parameters;
    if (Object.keys(radius).length > 0)
        step.radius = radius;
    put(step, 'totalTargetCount', (0, target_classes_1.sentCount)(v('count')));
    const attributes = space.dims
        .filter((d) => d.name.startsWith(target_classes_1.ATTR))
        .map((d) => [d.name.slice(target_classes_1.ATTR.length), v(d.name)]);
    const type = v('targetType');
    const layout = v(group_classes_1.LAYOUT);
    const listing = v(target_classes_1.LISTING);
    put(step, 'targetExecutions', layout
        ? (0, group_classes_1.layoutTargets)(layout, listing, v('count'), type)
        : (0, target_classes_1.targetsOfClass)(listing, attributes, v('count'), type));
    const execution = { id: 1 };
    put(execution, 'experimentKey', v('key'));
    put(execution, 'teamKey', v('team'));
    put(execution, 'environment', env.environment);
    if (env.override !== undefined)
        execution.overrides = { environment: env.override };
    put(execution, 'createdVia', v('via'));
    // The schema requires a username when createdBy is sent; an empty one is no username (starter-identity.ts).
    const username = v('starter');
    const email = v('starterEmail');
    if (username !== undefined || email !== undefined)
        execution.createdBy = { username: username ?? '', ...(email === undefined ? {} : { email }) };
    put(execution, 'experimentVersion', v('version'));
    execution.steps = [step];
    const now = v('time');
    const { signals, created } = (0, signal_classes_1.signalFactsOf)(space.signals, v, now);
    // A silence that began before the run hides an alert only from a run that says when it started.
    put(execution, 'created', created);
    const payload = { event: 'experiment.execution.preflight', execution };
    const state = {};
    for (const b of bundles)
        Object.assign(state, (0, quiet_facts_1.quietFacts)(b.needs).state ?? {});
    state.emergencyStop = { engaged: v('estop') === true };
    // The runs the state rules count, under each of the run's own scopes; a part not loaded is left out.
    const scopes = {
        environment: [env.environment, env.override].flatMap((e) => (e ? [(0, state_facts_1.scopeKey)('environment', e)] : [])),
        team: typeof execution.teamKey === 'string' ? [(0, state_facts_1.scopeKey)('team', execution.teamKey)] : [],
    };
    const recorded = (0, state_classes_1.stateFactsOf)(space.state, v, scopes, now);
    Object.assign(state, recorded.state);
    for (const part of recorded.absent)
        state[part] = undefined;
    const teams = {};
    for (const d of space.dims.filter((x) => x.name.startsWith(terms_1.MEMBERS))) {
        const team = d.name.slice(terms_1.MEMBERS.length);
        const read = v(d.name);
        if (read === 'member')
            teams[team] = { members: [{ username: username || 'prove-member', ...(email === undefined ? {} : { email }) }] };
        else if (read === 'not-member')
            teams[team] = { members: [{ username: `${value_classes_1.OTHER}-not-the-starter` }] };
        else if (read === 'unknown')
            teams[team] = { unknown: 'the Steadybit Platform API did not answer (prove)' };
    }
    const given = { state, signals, teams, ...(env.names ? { environments: env.names } : {}) };
    return {
        payload,
        now,
        facts: { state, signals, teams, ...(env.names ? { environments: env.names } : {}) },
        given,
    };
}
/** The classes of the run in words, dimension by dimension (only those some term reads). */
function describeRun(space, a, dims) {
    const parts = [];
    for (const name of dims) {
        const i = space.index.get(name);
        if (i === undefined)
            continue;
        const value = space.dims[i].values[Math.max(a[i], 0)];
        parts.push(`${name} ${value === undefined ? '(not sent)' : value instanceof Date ? value.toISOString() : JSON.stringify(value)}`);
    }
    return parts.join(', ');
}
//# sourceMappingURL=dimensions.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.factGatherer = factGatherer;
const NOTHING_NEEDED = Object.freeze({ ok: true, facts: Object.freeze({}) });
function planFor(needs, sources) {
    const first = [];
    const readers = [];
    for (const source of sources) {
        const own = needs.filter((need) => source.kinds.includes(need.kind));
        if (own.length === 0)
            continue;
        const asking = { source, own, names: own.some((need) => need.kind === 'environment-names') };
        (source.readsEnvironmentNames ? readers : first).push(asking);
    }
    return { needs, first, readers, count: first.length + readers.length };
}
/**
 * The facts a bundle's rules need (declared at load, PolicyBundle.needs), from `sources`: each
 * source is asked only for the needs of its kinds, all at once, and their parts are joined into
 * one Facts. A reader is asked once the environment names are in, with them, so it asks about the
 * name the decision will read; the bundle's environment names fill `{{environment}}`. A need no
 * source answers is left out: its rule cannot decide. The first source that is unavailable is the
 * answer. Who is asked for what is worked out once per bundle (its needs are frozen at load) and
 * kept until another bundle comes; `sources` and their kinds are fixed for the gatherer's life.
 */
function factGatherer(sources) {
    const fixed = [...sources];
    let plan;
    return (bundle, payload, now) => {
        try {
            if (plan?.needs !== bundle.needs)
                plan = planFor(bundle.needs, fixed);
            return gather(plan, payload, now, bundle);
        }
        catch (err) {
            // A source that throws (a bug) rejects, as an async gatherer would.
            return Promise.reject(err);
        }
    };
}
/** The plan's answers: none asked, one asked (its answer is the answer), or all of them joined. */
function gather(plan, payload, now, directory) {
    if (plan.count === 0)
        return Promise.resolve(NOTHING_NEEDED);
    // One source (the state store alone, as in most deployments): nothing to wait for or join. A
    // reader alone gets no names, as it would below.
    if (plan.count === 1) {
        const [only] = plan.first.length === 1 ? plan.first : plan.readers;
        return only.source.gather(only.own, payload, now, directory);
    }
    return gatherAll(plan, payload, now, directory);
}
async function gatherAll(plan, payload, now, directory) {
    const asked = plan.first.map((one) => one.source.gather(one.own, payload, now, directory));
    if (plan.readers.length > 0) {
        const named = await Promise.all(asked.filter((_, i) => plan.first[i].names));
        const parts = named.flatMap((a) => (a.ok && a.facts.environments ? [a.facts.environments] : []));
        const environments = parts.length > 0 ? Object.assign({}, ...parts) : undefined;
        for (const { source, own } of plan.readers)
            asked.push(source.gather(own, payload, now, directory, environments));
    }
    const answers = await Promise.all(asked);
    const facts = {};
    for (const answer of answers) {
        if (!answer.ok)
            return answer;
        Object.assign(facts, answer.facts);
    }
    return { ok: true, facts };
}
//# sourceMappingURL=fact-gatherer.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Judge = exports.MAX_CELLS = void 0;
exports.search = search;
const decide_1 = require("../policy/engine/decide");
const dimensions_1 = require("./dimensions");
/** Past this many decisions of one term's classes the search stops and says so (never a proof). */
exports.MAX_CELLS = 200_000;
/**
 * Decides terms on class representatives with the real engine, each (term, class) once: a term's
 * answer is a function of the classes of the dimensions it reads, so its memo is keyed by them.
 */
class Judge {
    space;
    factBundles;
    memo = new Map();
    decisions = 0;
    constructor(space, factBundles) {
        this.space = space;
        this.factBundles = factBundles;
    }
    keyOf(term, a) {
        let key = '';
        for (const [dim, reading] of term.reads) {
            const i = this.space.index.get(dim);
            const at = Math.max(a[i], 0);
            key += reading === 'full' ? `${at},` : `${this.space.dims[i].values[at] === undefined ? 'a' : 'p'},`;
        }
        return key;
    }
    /** Whether the term (its policy with this one rule) denies the run of the assignment. */
    denies(term, a) {
        let memo = this.memo.get(term);
        if (!memo)
            this.memo.set(term, (memo = new Map()));
        const key = this.keyOf(term, a);
        const known = memo.get(key);
        if (known !== undefined)
            return known;
        const run = (0, dimensions_1.runOf)(this.space, a, this.factBundles);
        this.decisions++;
        const decision = (0, decide_1.decide)(term.bundle, run.payload, run.facts, run.now, {
            decisionId: 'prove',
            fullScan: term.applies,
        });
        const answer = term.applies
            ? decision.results.some((r) => r.policy === term.policy && r.result !== 'skipped')
            : !decision.allowed;
        memo.set(key, answer);
        return answer;
    }
    /** The values of a dimension that some of `terms` can tell apart: all of them, or one sent and one not. */
    choices(dim, terms) {
        const i = this.space.index.get(dim);
        const values = this.space.dims[i].values;
        if (terms.some((t) => t.reads.get(dim) === 'full'))
            return values.map((_, j) => j);
        if (!terms.some((t) => t.reads.has(dim)))
            return [0];
        const sent = values.findIndex((v) => v !== undefined);
        const absent = values.indexOf(undefined);
        return [sent, absent].filter((j) => j >= 0);
    }
}
exports.Judge = Judge;
/**
 * The classes where `must` denies and none of `mustNot` does: one run for each class of the
 * dimensions `must` reads where such a run exists (the others are searched, depth first, pruned as
 * soon as a term of `mustNot` is decided and denies). `complete: false` when the search stopped at
 * MAX_CELLS; `accept` may end it at a run it takes (`stopped`).
 */
function search(judge, must, mustNot, opts = {}) {
    const { space } = judge;
    const dimsOfMust = [...must.reads.keys()];
    // A dimension `must` reads only in part (whether it is sent) but a term of mustNot reads in full
    // is tried again in the extension, over every value sent (or not) as the class's was.
    const refined = dimsOfMust.filter((d) => must.reads.get(d) === 'presence' && mustNot.some((t) => t.reads.get(d) === 'full'));
    const rest = [...new Set(mustNot.flatMap((t) => [...t.reads.keys()]))].filter((d) => !must.reads.has(d));
    rest.sort((x, y) => mustNot.filter((t) => t.reads.has(y)).length - mustNot.filter((t) => t.reads.has(x)).length);
    const order = [...dimsOfMust, ...refined, ...rest];
    const positions = order.map((d) => space.index.get(d));
    const sentAt = (k, j) => space.dims[positions[k]].values[j] !== undefined;
    const picked = new Map();
    const choices = order.map((d, k) => {
        if (k < dimsOfMust.length)
            return () => judge.choices(d, [must]);
        if (k < dimsOfMust.length + refined.length) {
            const all = judge.choices(d, mustNot);
            const first = dimsOfMust.indexOf(d);
            return () => all.filter((j) => sentAt(k, j) === sentAt(first, picked.get(first)));
        }
        const list = judge.choices(d, mustNot);
        return () => list;
    });
    // The terms of mustNot decided once the first k dimensions are assigned (a refined one counts where it is refined).
    const level = new Map();
    for (const t of mustNot) {
        let deepest = -1;
        for (const d of t.reads.keys())
            deepest = Math.max(deepest, order.lastIndexOf(d));
        level.set(t, deepest);
    }
    const due = order.map((_, k) => mustNot.filter((t) => level.get(t) === k));
    const always = mustNot.filter((t) => level.get(t) === -1);
    const a = opts.base ? [...opts.base] : space.dims.map(() => -1);
    const found = [];
    let cells = 0;
    let complete = true;
    let stopped = false;
    if (always.some((t) => judge.denies(t, a)))
        return { found, complete, stopped };
    const extend = (k) => {
        if (k === order.length)
            return true;
        // A refined dimension shares its place with the region's pick: put that back, not "unassigned".
        const before = a[positions[k]];
        for (const j of choices[k]()) {
            a[positions[k]] = j;
            if (due[k].some((t) => judge.denies(t, a)))
                continue;
            if (extend(k + 1))
                return true;
        }
        a[positions[k]] = before;
        return false;
    };
    const region = (k) => {
        if (k === dimsOfMust.length) {
            if (++cells > exports.MAX_CELLS) {
                complete = false;
                return false;
            }
            if (!judge.denies(must, a))
                return true;
            if (due.slice(0, k).some((ts) => ts.some((t) => judge.denies(t, a))))
                return true;
            if (extend(k)) {
                found.push({ assignment: [...a] });
                if (opts.accept?.([...a])) {
                    stopped = true;
                    return false;
                }
            }
            return true;
        }
        for (const j of choices[k]()) {
            a[positions[k]] = j;
            picked.set(k, j);
            if (!region(k + 1))
                return false;
        }
        a[positions[k]] = -1;
        return true;
    };
    region(0);
    return { found, complete, stopped };
}
//# sourceMappingURL=search.js.map
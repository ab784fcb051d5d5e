"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.positionsMatcher = positionsMatcher;
const glob_regex_1 = require("./glob-regex");
function positionsMatcher(nodes) {
    const sequence = sequenceEnds(nodes);
    return (value) => sequence(value, 0).has(value.length);
}
function sequenceEnds(nodes) {
    const steps = nodes.map((node) => (node.kind === 'any' ? 'any' : nodeEnds(node)));
    return (value, from) => {
        let at = new Set([from]);
        for (const step of steps) {
            // `*` from several starts ends at every boundary after the first of them: walked once, not once per start.
            const next = step === 'any' ? new Set(boundaries(value, first(at))) : new Set();
            if (step !== 'any')
                for (const p of at)
                    for (const end of step(value, p))
                        next.add(end);
            if (next.size === 0)
                return next;
            at = next;
        }
        return at;
    };
}
function first(positions) {
    let min = Number.POSITIVE_INFINITY;
    for (const p of positions)
        if (p < min)
            min = p;
    return min;
}
function nodeEnds(node) {
    switch (node.kind) {
        case 'any':
            return (value, from) => new Set(boundaries(value, from));
        case 'oneOf':
            return anyOf(node.alternatives.map(sequenceEnds));
        case 'repeat': {
            const once = anyOf(node.alternatives.map(sequenceEnds));
            return (value, from) => repeated(once, node.min, node.max, value, from);
        }
        case 'noneOf': {
            const some = anyOf(node.alternatives.map(sequenceEnds));
            return (value, from) => {
                const excluded = some(value, from);
                return new Set(boundaries(value, from).filter((end) => !excluded.has(end)));
            };
        }
        default: {
            const leaf = new RegExp((0, glob_regex_1.leafSource)(node), 'iuy');
            return (value, from) => {
                leaf.lastIndex = from;
                return leaf.test(value) ? new Set([leaf.lastIndex]) : new Set();
            };
        }
    }
}
function anyOf(alternatives) {
    return (value, from) => {
        const out = new Set();
        for (const alternative of alternatives)
            for (const end of alternative(value, from))
                out.add(end);
        return out;
    };
}
/** The ends of `min` to `max` matches of `once` one after another; an end reached before is not walked again. */
function repeated(once, min, max, value, from) {
    const out = new Set(min === 0 ? [from] : []);
    let frontier = new Set([from]);
    for (let count = 1; count <= max && frontier.size > 0; count++) {
        const next = new Set();
        for (const p of frontier)
            for (const end of once(value, p))
                if (!out.has(end))
                    next.add(end);
        for (const end of next)
            out.add(end);
        frontier = next;
    }
    return out;
}
/** Every code point boundary from `from` to the end of the value, both included. */
function boundaries(value, from) {
    const out = [from];
    for (let i = from; i < value.length;) {
        i += value.codePointAt(i) > 0xffff ? 2 : 1;
        out.push(i);
    }
    return out;
}
//# sourceMappingURL=glob-positions.js.map
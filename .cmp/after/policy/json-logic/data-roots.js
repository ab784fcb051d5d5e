"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.dataRoots = dataRoots;
/** Operations whose later arguments run once per element of the first one (paths there are relative). */
const PER_ELEMENT = new Set(['map', 'filter', 'all', 'none', 'some', 'reduce']);
/**
 * The top-level data keys an already checked expression reads (`targets`, `execution`...), so a
 * condition builds only those; `all` when it reads the whole data object (`{"var": ""}`).
 */
function dataRoots(node, roots = new Set()) {
    if (node === null || typeof node !== 'object')
        return roots;
    if (Array.isArray(node)) {
        for (const item of node)
            if (dataRoots(item, roots) === 'all')
                return 'all';
        return roots;
    }
    const [op] = Object.keys(node);
    const raw = node[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'var' || op === 'missing' || op === 'missing_some') {
        const paths = op === 'var'
            ? [args[0]]
            : op === 'missing_some'
                ? args[1]
                : args.length === 1 && Array.isArray(args[0])
                    ? args[0]
                    : args;
        for (const p of paths) {
            if (p === '' || p === null || p === undefined)
                return 'all';
            roots.add(String(p).split('.')[0]);
        }
        return op === 'var' && args.length === 2 ? dataRoots(args[1], roots) : roots;
    }
    // reduce's third argument (the initial value) is read at this level too.
    const here = PER_ELEMENT.has(op) ? [args[0], ...(op === 'reduce' ? [args[2]] : [])] : args;
    return dataRoots(here, roots);
}
//# sourceMappingURL=data-roots.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.needKey = void 0;
exports.collectNeeds = collectNeeds;
/** Same need, same key (needs are plain data). */
const needKey = (need) => JSON.stringify(need, Object.keys(need).sort());
exports.needKey = needKey;
/** The needs of every rule, each once, in the order first met (load time). */
function collectNeeds(rules) {
    const seen = new Map();
    for (const rule of rules)
        for (const need of rule.needs ?? []) {
            const key = (0, exports.needKey)(need);
            if (!seen.has(key))
                seen.set(key, need);
        }
    return Object.freeze([...seen.values()]);
}
//# sourceMappingURL=need.js.map
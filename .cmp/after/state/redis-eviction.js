"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.evictionRisk = evictionRisk;
/**
 * Whether Redis may drop what the gate keeps there on its own: with `maxmemory` set and any
 * `maxmemory-policy` but `noeviction`, a full Redis evicts keys (the `volatile-*` policies those
 * with a TTL, as run records have). An evicted run record, exception use count or guarded run is
 * forgotten, and what it would have denied is allowed: said in /readyz and at start, never silent.
 */
function evictionRisk(infoMemory) {
    const risky = [];
    for (const info of infoMemory) {
        const maxmemory = Number(field(info, 'maxmemory'));
        const policy = field(info, 'maxmemory_policy');
        if (policy === undefined)
            return 'Redis did not say its maxmemory-policy (INFO memory): whether it evicts what the gate keeps cannot be known';
        if (maxmemory > 0 && policy !== 'noeviction')
            risky.push(`maxmemory ${maxmemory} bytes, maxmemory-policy ${policy}`);
    }
    if (risky.length === 0)
        return undefined;
    return `Redis evicts keys when full (${[...new Set(risky)].join('; ')}): a run record, exception use count or guarded run it evicts is forgotten, and runs it would have denied are allowed. Set maxmemory-policy noeviction (a full Redis then refuses writes, which the gate answers by denying)`;
}
function field(info, name) {
    return new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
}
//# sourceMappingURL=redis-eviction.js.map
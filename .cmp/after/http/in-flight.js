"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.InFlight = void 0;
/**
 * Things in progress (the responses being answered), kept in slots that are reused: adding one and
 * removing it writes two array slots, whatever the load, and never rebuilds a table.
 *
 * Not a Set: a Set that lives as long as the server, with an entry added and deleted for every
 * request, is rebuilt every few requests, and V8 links each table it leaves to the one that
 * replaces it. Once one of them had reached the old generation, every later table, and every
 * response it had held, with its request, headers and audit record, survived each scavenge
 * until the next full GC: about 3.5 KB promoted per request, and the peak RSS of the benchmark up
 * by 60-100 MB (measured on Node 20: docs/decisions/0009-no-per-request-set-entries.md). Measured
 * again on Node 26.12.1 (docs/decisions/0025-engine-comments-on-node-26.md): a Set used so made
 * 13-16 full GCs where these slots made 1-2, with 1.5x the peak RSS.
 */
class InFlight {
    slots = [];
    free = [];
    /** Adds `item`; the function returned removes it (a second call does nothing). */
    add(item) {
        const slot = this.free.pop() ?? this.slots.length;
        this.slots[slot] = item;
        let removed = false;
        return () => {
            if (removed)
                return;
            removed = true;
            this.slots[slot] = undefined;
            this.free.push(slot);
        };
    }
    /** The items in progress (in no particular order). */
    *[Symbol.iterator]() {
        for (const item of this.slots)
            if (item !== undefined)
                yield item;
    }
}
exports.InFlight = InFlight;
//# sourceMappingURL=in-flight.js.map
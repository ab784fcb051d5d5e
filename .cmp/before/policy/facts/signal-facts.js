"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.own = own;
/** An own entry of a facts map (never one inherited from Object.prototype). */
function own(map, key) {
    return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}
//# sourceMappingURL=signal-facts.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.servedPolicies = servedPolicies;
const built_in_policies_1 = require("../compile/built-in-policies");
/**
 * A view of the policy store whose bundles also hold the built-in policies (withBuiltIns). Each
 * loaded bundle is extended once, at its first use; a reload swaps in a new bundle and so a new
 * extension.
 */
function servedPolicies(store, builtIns) {
    if (builtIns.length === 0)
        return store;
    let loaded;
    let served;
    return {
        current() {
            const bundle = store.current();
            if (bundle !== loaded) {
                loaded = bundle;
                served = bundle && (0, built_in_policies_1.withBuiltIns)(bundle, builtIns);
            }
            return served;
        },
    };
}
//# sourceMappingURL=served-policies.js.map
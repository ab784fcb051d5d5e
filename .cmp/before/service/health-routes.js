"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UNSIGNED_WARNING = void 0;
exports.healthRouter = healthRouter;
const express_1 = require("express");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const starter_policies_1 = require("../policy/loading/starter-policies");
const check_needs_1 = require("./check-needs");
exports.UNSIGNED_WARNING = 'WEBHOOK_SECRET is not set: unsigned requests are accepted; anyone who can reach this service can decide runs';
/** Each capability's readiness, under its name, in the capabilities' order. */
function readiness(capabilities) {
    const out = {};
    for (const c of capabilities)
        if (c.readiness)
            out[c.name] = c.readiness();
    return out;
}
function lackingOf(capabilities, bundle) {
    const lacking = (0, check_needs_1.checkNeeds)(capabilities, bundle).map(({ capability, feature, lacking, message, asked }) => ({
        capability,
        feature,
        lacking,
        message,
        asked,
    }));
    return lacking.length > 0 ? { lacking } : {};
}
/** `/healthz`: the process is alive. `/readyz`: 200 only while a valid policy set is loaded. */
function healthRouter(deps) {
    const router = (0, express_1.Router)();
    const capabilities = deps.capabilities ?? [];
    router.get('/healthz', (_req, res) => {
        res.status(200).json({ status: 'alive' });
    });
    router.get('/readyz', (_req, res) => {
        const bundle = (deps.served ?? deps.store).current();
        // The store's set: the one loaded, with the built-in policies when the reloader served it so.
        const fromFiles = deps.store.current();
        const lastLoad = deps.store.lastLoad();
        const body = {
            signaturesEnforced: deps.signaturesEnforced,
            ...(deps.signaturesEnforced ? {} : { warning: exports.UNSIGNED_WARNING }),
            revision: bundle?.revision,
            // Every policy a decision is made on, as the decision's message counts them: the built-in ones too.
            policies: bundle?.policies.length ?? 0,
            builtInPolicies: bundle ? (0, built_in_policies_1.builtInNames)(bundle) : [],
            // The policies read from POLICY_DIR (what preflight_policies_loaded and `validate` count).
            policiesFromFiles: fromFiles ? (0, built_in_policies_1.policiesFromFiles)(fromFiles) : 0,
            exceptions: bundle?.exceptions.length ?? 0,
            starterPolicies: deps.starterPolicies === true,
            ...(deps.starterPolicies ? { notice: starter_policies_1.STARTER_POLICIES_NOTICE } : {}),
            loadedAt: bundle?.loadedAt.toISOString(),
            lastLoad,
            ...(deps.policySync ? { policyFiles: deps.policySync() } : {}),
            ...readiness(capabilities),
            capabilities: capabilities.map((c) => c.name),
            // What the policy set in use asks that this service lacks (each also logged at start).
            ...lackingOf(capabilities, fromFiles),
        };
        if (deps.isShuttingDown()) {
            res.status(503).json({ status: 'shutting down', message: 'preflight-gate is shutting down', ...body });
        }
        else if (!bundle) {
            res.status(503).json({ status: 'not ready', message: 'no valid policy set is loaded', ...body });
        }
        else {
            res.status(200).json({ status: 'ready', ...body });
        }
    });
    return router;
}
//# sourceMappingURL=health-routes.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PolicyStore = void 0;
const load_error_1 = require("../compile/load-error");
/**
 * Holds the bundle in use. A bundle is immutable; replacing it is one reference swap, so a request
 * that took a bundle finishes on it, and no request ever sees a half-loaded set.
 */
class PolicyStore {
    bundle;
    status;
    warningsInUse = [];
    /** The files of the policy directory not loaded, as of the last look (filesNotLoaded). */
    notLoaded = [];
    constructor(initial) {
        this.bundle = initial;
    }
    current() {
        return this.bundle;
    }
    replace(bundle, warnings = [], trigger, at = new Date()) {
        this.bundle = bundle;
        this.warningsInUse = warnings.map(load_error_1.formatProblem);
        this.status = {
            at: at.toISOString(),
            ok: true,
            trigger,
            revision: bundle.revision,
            problems: this.warningsInUse,
        };
    }
    /** A failed load keeps the bundle in use (if any) and is remembered for readiness. */
    rejected(problems, meta = {}) {
        this.status = {
            at: (meta.at ?? new Date()).toISOString(),
            ok: false,
            trigger: meta.trigger,
            revision: this.bundle?.revision,
            rejectedRevision: meta.rejectedRevision,
            problems: problems.map(load_error_1.formatProblem),
        };
    }
    /**
     * An attempt that found the files of the last one (nothing loaded again): /readyz shows when it was
     * made and what made it, with what the last one found (the files not loaded are looked at anew).
     */
    unchanged(trigger, at) {
        if (this.status)
            this.status = { ...this.status, at: at.toISOString(), trigger, unchanged: true };
    }
    /**
     * The files of the policy directory the loader does not read (`x.yaml.bak`), one warning each, as
     * of the last look: every reload attempt looks, whether a set loaded, was rejected or did not change.
     */
    filesNotLoaded(problems) {
        this.notLoaded = problems.map(load_error_1.formatProblem);
    }
    /** The last load attempt, its problems followed by the files not loaded as they are now. */
    lastLoad() {
        return this.status && { ...this.status, problems: [...this.status.problems, ...this.notLoaded] };
    }
    warnings() {
        return this.warningsInUse;
    }
}
exports.PolicyStore = PolicyStore;
//# sourceMappingURL=policy-store.js.map
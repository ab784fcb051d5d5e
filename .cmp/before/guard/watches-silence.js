"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.watchesSilence = watchesSilence;
const watching = new WeakMap();
/**
 * Whether a guarded view has a `deadMan` rule (docs/guard.md, "Dead man"): only then does a tick
 * read and write each run's silences. Once per view (a bundle is never changed).
 */
function watchesSilence(view) {
    let answer = watching.get(view);
    if (answer === undefined) {
        answer = view.policies.some((p) => p.rules.some((r) => r.deadMan === true));
        watching.set(view, answer);
    }
    return answer;
}
//# sourceMappingURL=watches-silence.js.map
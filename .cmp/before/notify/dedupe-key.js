"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.dedupeKey = dedupeKey;
/**
 * What makes two notifications "the same" for collapsing: the kind, the experiment, team and
 * environment, the policies and their reasons (and who, and which problems). The run and the
 * decision are left out (a denial's message names its decision, so it is left out too), so a client retrying a denied run (or a schedule starting the same experiment again and
 * again) gives one message with a count, not one per attempt.
 */
function dedupeKey(n) {
    const run = n.run;
    return JSON.stringify([
        n.kind,
        run?.experimentKey,
        run?.team,
        run?.environment,
        n.by,
        n.problems,
        n.policies.map((p) => [p.policy, p.result, p.exception, p.reasons]),
    ]);
}
//# sourceMappingURL=dedupe-key.js.map
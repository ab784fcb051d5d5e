"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.replayBundle = void 0;
exports.redecide = redecide;
const facts_1 = require("../policy/facts/facts");
const preflight_answer_1 = require("../policy/core/preflight-answer");
const validate_payload_1 = require("../payload/validate-payload");
const decide_1 = require("../policy/engine/decide");
const archived_results_1 = require("../archive/archived-results");
const facts_coverage_1 = require("./facts-coverage");
const run_needs_1 = require("./run-needs");
const create_context_1 = require("../policy/engine/create-context");
const masked_attribute_traps_1 = require("./masked-attribute-traps");
const guard_view_1 = require("../guard/guard-view");
const judge_running_run_1 = require("../guard/judge-running-run");
const uses_dependence_1 = require("./uses-dependence");
const unrecorded_silences_1 = require("./unrecorded-silences");
const replayBundle = (bundle) => ({
    bundle,
    needs: bundle.needs,
    runNeeds: (0, run_needs_1.runNeedsPlan)(bundle),
});
exports.replayBundle = replayBundle;
/** The guarded part of a proposed set, built once per set: replay decides many records on one. */
function whileRunningBundle(proposed) {
    proposed.whileRunning ??= (0, exports.replayBundle)((0, guard_view_1.guardView)(proposed.bundle));
    return proposed.whileRunning;
}
/**
 * The facts this run's decision under `proposed` needs and the record lacks, and the sources whose
 * silences it did not record. When the record answers every need of the whole set (a proposal that
 * reads nothing new: the common case), so it does each run's part of them, and which policies
 * apply to the run is not worked out here (the decision does it once).
 */
function whatIsLacking(proposed, record, context) {
    const all = proposed.runNeeds.all;
    if ((0, facts_coverage_1.missingFacts)(all, record.facts).length === 0 && (0, unrecorded_silences_1.unrecordedSilences)(all, record.facts.signals).length === 0)
        return { missing: [], unreadSilences: [] };
    const needed = (0, run_needs_1.runNeeds)(proposed.bundle, proposed.runNeeds, context());
    return {
        missing: (0, facts_coverage_1.missingFacts)(needed, record.facts),
        unreadSilences: (0, unrecorded_silences_1.unrecordedSilences)(needed, record.facts.signals),
    };
}
/**
 * Decides an archived run again under `proposed`: its payload, at its decision time, with its
 * recorded facts and decision id, the way the route decided it (?explain included). Not
 * replayable when the archive lacks something the decision needs: a fact the proposed set asks
 * for, for this run (a policy that applies to it, or a scope placing it), that was not gathered,
 * or a masked attribute value the decision read.
 */
function redecide(given, record) {
    // A stop by the guard is judged again on the proposed set's guarded part, as the guard would (docs/guard.md).
    const proposed = record.whileRunning ? whileRunningBundle(given) : given;
    const checked = (0, validate_payload_1.validatePreflightPayload)(record.payload);
    if (!checked.ok)
        return {
            kind: 'not-replayable',
            reason: `the archived payload is not a valid preflight payload: ${(0, validate_payload_1.describeFieldErrors)(checked.errors)}`,
        };
    const { needs: _recorded, ...recorded } = record.facts;
    // Only the facts the run's decision reads: a memory rule of a policy scoped to another team
    // leaves this run replayable from what the archive holds.
    const at = new Date(record.at);
    const lacking = whatIsLacking(proposed, record, () => (0, create_context_1.createContext)(proposed.bundle, checked.payload, recorded, at, record.id));
    if (lacking.missing.length > 0) {
        return {
            kind: 'not-replayable',
            reason: `the proposed policies need state facts the archive did not record for this run (its policy set did not need them): ${lacking.missing.map(facts_coverage_1.describeNeed).join(', ')}`,
        };
    }
    const unread = lacking.unreadSilences;
    if (unread.length > 0) {
        return {
            kind: 'not-replayable',
            reason: `the archive lists silenced alerts of alertmanager ${unread.map((s) => `"${s}"`).join(', ')} without the silences' times (recorded before the gate read them), so whether a silence began after the run started cannot be told`,
        };
    }
    const reads = (0, masked_attribute_traps_1.trapMaskedAttributes)(checked.payload, record.masked);
    // An exception the archive's set did not have (no use count recorded) had waived no run then.
    // A record whose service could not count uses (in-memory state) says so instead: it is kept, so
    // the replay does not waive where production refused to.
    const countsUses = proposed.needs.some((n) => n.kind === 'exception-uses') &&
        recorded.state?.exceptionUses === undefined &&
        recorded.state?.exceptionUsesUnknown === undefined;
    const counted = countsUses ? { ...recorded, state: { ...recorded.state, exceptionUses: {} } } : recorded;
    // A stop recorded before the set had a deadMan holds no silentSince: as the guard, none was silent before.
    const facts = record.whileRunning ? (0, judge_running_run_1.runningFacts)(counted) : (0, facts_1.doorFacts)(counted);
    const decision = (0, decide_1.decide)(proposed.bundle, checked.payload, facts, at, {
        decisionId: record.id,
        fullScan: record.explain,
    });
    if (reads.keys.size > 0) {
        return {
            kind: 'not-replayable',
            reason: `the decision reads the target attribute${reads.keys.size === 1 ? '' : 's'} ${[...reads.keys].join(', ')}, whose values the archive masks (DECISION_ARCHIVE_MASK_ATTRIBUTES)`,
        };
    }
    const dependsOnUses = (0, uses_dependence_1.usesDependence)(proposed.bundle, checked.payload, facts, decision, {
        now: at,
        decisionId: record.id,
    });
    return {
        kind: 'decided',
        answer: (0, preflight_answer_1.preflightAnswer)(decision, record.explain),
        results: (0, archived_results_1.archivedResults)(decision.results),
        ...(dependsOnUses ? { dependsOnUses } : {}),
    };
}
//# sourceMappingURL=redecide.js.map
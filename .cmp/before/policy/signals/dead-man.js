"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sameSignal = exports.DEAD_MAN_SCHEMA = void 0;
exports.compileDeadMan = compileDeadMan;
exports.deadManFinding = deadManFinding;
const duration_1 = require("../../syntax/duration");
const human_duration_1 = require("../../syntax/human-duration");
/** The longest `after`: a run is watched at most EXECUTION_TTL_SECONDS, a day by default. */
const MAX_AFTER_MS = 86_400_000;
exports.DEAD_MAN_SCHEMA = {
    type: 'object',
    additionalProperties: false,
    required: ['after'],
    description: 'The signal must keep answering while a guarded run is in progress: silent (its source cannot answer, or the query returns no data) for `after`, the run is stopped or reported; a new run is denied while it is silent (docs/guard.md, "Dead man").',
    properties: {
        after: {
            type: 'string',
            pattern: duration_1.DURATION_WITH_UNITS_PATTERN,
            syntax: 'duration',
            description: 'How long the signal may stay silent while a run is in progress, e.g. 2m (at most 1d).',
        },
        then: {
            type: 'string',
            enum: ['stop', 'report'],
            default: 'stop',
            description: 'stop (default): cancel the run (an enforce policy); report: log, count and notify, the run goes on.',
        },
    },
};
/** The compiled `deadMan`, or why it cannot be (with its path inside the rule). */
function compileDeadMan(spec, rule) {
    const afterMs = (0, duration_1.parseDuration)(spec.after);
    if (afterMs === undefined || afterMs < 1000 || afterMs > MAX_AFTER_MS)
        return {
            message: `deadMan.after must be at least 1s and at most 1d, got "${spec.after}"`,
            path: ['deadMan', 'after'],
        };
    if (rule.onUnavailable === 'allow')
        return {
            message: 'deadMan asks the signal to keep answering, onUnavailable: allow lets a source that cannot answer through: drop one of them',
            path: ['onUnavailable'],
        };
    if (rule.onEmpty !== undefined)
        return {
            message: 'deadMan decides what no data means (silent: the run is stopped or reported after deadMan.after): drop onEmpty',
            path: ['onEmpty'],
        };
    return Object.freeze({ afterMs, then: spec.then ?? 'stop' });
}
const sameSignal = (a, b) => a.kind === b.kind && a.source === b.source && (a.query ?? '') === (b.query ?? '');
exports.sameSignal = sameSignal;
/**
 * What a `deadMan` rule finds for one silent signal (`what` names it, `silence` says how it is
 * silent: `could not be read (...)`, `returned no samples`). At the door (no `silentSince` in the
 * facts) a run does not start on a silent signal: a violation. While a run is in progress the
 * read says since when it is silent (the first tick that found it, or now); silent for
 * `after` or longer, the rule stops the run (`then: stop`) or only says so (`then: report`: an
 * advisory finding). Pure: the time is the decision's.
 */
function deadManFinding(deadMan, key, what, silence, signals, read, now) {
    const kept = signals?.silentSince;
    if (kept === undefined)
        return {
            reason: `dead man: ${what} ${silence}; a run does not start while a signal it must keep answering is silent (deadMan)`,
            signal: read,
        };
    const since = kept.find((s) => (0, exports.sameSignal)(s, key))?.since ?? now.toISOString();
    read.silent = { ...key, since };
    const silentMs = now.getTime() - Date.parse(since);
    if (!(silentMs >= deadMan.afterMs))
        return undefined;
    return {
        reason: `dead man: ${what} has been silent since ${since} (${(0, human_duration_1.humanDuration)(silentMs)}, deadMan.after ${(0, human_duration_1.humanDuration)(deadMan.afterMs)}): ${silence}`,
        ...(deadMan.then === 'report' ? { status: 'advisory' } : {}),
        signal: read,
    };
}
//# sourceMappingURL=dead-man.js.map
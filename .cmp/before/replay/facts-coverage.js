"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.missingFacts = missingFacts;
exports.describeNeed = describeNeed;
const human_duration_1 = require("../syntax/human-duration");
/** The attribute of a need per attacked service (cool-downs `per: service`), else undefined. */
const attributeOf = (need) => need.kind === 'ended' && need.per === 'service' ? need.attribute : undefined;
const perText = (need) => need.per === 'team' ? ' per team' : need.per === 'service' ? ` per attacked ${need.attribute}` : '';
/** Whether a need the archive's policy set had answers `need`: same kind and scope, a window at least as long. */
function covers(recorded, need) {
    if (recorded.kind !== need.kind)
        return false;
    switch (need.kind) {
        case 'emergency-stop':
        case 'environment-names':
            return true;
        case 'team-members':
            return recorded.kind === 'team-members' && recorded.team === need.team;
        case 'running':
            return recorded.kind === 'running' && recorded.per === need.per;
        case 'ended':
        case 'started':
            return ((recorded.kind === 'ended' || recorded.kind === 'started') &&
                recorded.per === need.per &&
                attributeOf(recorded) === attributeOf(need) &&
                recorded.windowMs >= need.windowMs);
        // Live signals: every alert of the source was recorded (the rules filter); a query by its text.
        case 'alerts':
            return recorded.kind === 'alerts' && recorded.source === need.source;
        case 'prometheus':
            return recorded.kind === 'prometheus' && recorded.source === need.source && recorded.query === need.query;
        case 'json':
            return recorded.kind === 'json' && recorded.source === need.source && recorded.path === need.path;
        case 'in-progress':
            return recorded.kind === 'in-progress' && recorded.attribute === need.attribute;
        case 'exception-uses':
            return true; // never asked here: missingFacts lets uses through (redecide.ts)
    }
}
/**
 * The needs of a proposed policy set that the archived facts do not answer: a fact the recording
 * set did not read at all, read for another scope, or a window longer than the one it read (a
 * cool-down of 2h cannot be judged from the runs of the last 30 minutes). Empty when the facts
 * cover every need.
 */
function missingFacts(needs, facts) {
    // What was asked for is what the decision had (an answer, or "not loaded" if no source answered).
    // An exception's use count the archive lacks is its count then: none, as the exception is new (redecide.ts).
    return needs.filter((need) => need.kind !== 'exception-uses' && !facts.needs.some((recorded) => covers(recorded, need)));
}
/** A need as a person reads it: `{kind: 'ended', windowMs: 7200000, ...}` -> `runs ended in the last 2h`. */
function describeNeed(need) {
    switch (need.kind) {
        case 'emergency-stop':
            return 'the emergency stop';
        case 'environment-names':
            return 'the Steadybit environment names';
        case 'team-members':
            return `the members of Steadybit team ${need.team}`;
        case 'running':
            return need.per === 'team' ? 'the running runs per team' : 'the running runs';
        case 'ended':
        case 'started':
            return `runs ${need.kind} in the last ${(0, human_duration_1.humanDuration)(need.windowMs)}${perText(need)}`;
        case 'alerts':
            return `the alerts of alertmanager "${need.source}"`;
        case 'prometheus':
            return `the query ${need.query} on prometheus "${need.source}"`;
        case 'json':
            return `GET ${need.path} on json "${need.source}"`;
        case 'exception-uses':
            return `the uses of exception "${need.exception}"`;
        case 'in-progress':
            return need.attribute === undefined
                ? 'the runs in progress on the same targets'
                : `the runs in progress on targets sharing ${need.attribute}`;
    }
}
//# sourceMappingURL=facts-coverage.js.map
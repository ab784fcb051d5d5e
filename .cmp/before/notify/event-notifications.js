"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.emergencyStopNotification = emergencyStopNotification;
exports.policyRejectedNotification = policyRejectedNotification;
exports.runStoppedNotification = runStoppedNotification;
exports.signalSilentNotification = signalSilentNotification;
const run_link_1 = require("./run-link");
/** The emergency stop engaged or released, as POST /events applied it (one replica applies each event). */
function emergencyStopNotification(event, now) {
    const at = event.changedAt.text;
    return event.engaged
        ? {
            kind: 'emergency-stop-engaged',
            time: now.toISOString(),
            title: `Emergency stop engaged by ${event.by}`,
            message: `Steadybit's emergency stop was engaged at ${at}: no experiment run may start until it is released.`,
            policies: [],
            by: event.by,
        }
        : {
            kind: 'emergency-stop-released',
            time: now.toISOString(),
            title: `Emergency stop released by ${event.by}`,
            message: `Steadybit's emergency stop was released at ${at}: runs are decided by the policies again.`,
            policies: [],
            by: event.by,
        };
}
/** A policy reload that was rejected: the set in use keeps serving. */
function policyRejectedNotification(trigger, problems, revisionInUse, now) {
    const keeps = revisionInUse
        ? `revision ${revisionInUse} is still in use`
        : 'no policy set is in use, so every run is refused';
    return {
        kind: 'policy-rejected',
        time: now.toISOString(),
        title: 'A policy change was rejected',
        message: `The policy files changed (${trigger}) but are invalid, so they were not loaded; ${keeps}. Fix the files below.`,
        policies: [],
        problems: problems.slice(0, 10),
        revision: revisionInUse,
    };
}
/**
 * A run the guard stopped while running, told from the guard's own stop record (its `onStop` hook
 * hands it over as it is): the policies that stopped the run, not those that only report.
 */
function runStoppedNotification(stop, runUrl) {
    const id = Number(stop.executionId);
    const run = {
        executionId: Number.isSafeInteger(id) ? id : undefined,
        experimentKey: stop.experimentKey,
        team: stop.team,
        environment: stop.environment,
        // Named as a denial names it (notifiedRun): the Steadybit name, or why it cannot be known.
        ...(stop.environmentName !== undefined ? { environmentName: stop.environmentName } : {}),
        ...(stop.environmentNameUnknown !== undefined ? { environmentNameUnknown: stop.environmentNameUnknown } : {}),
    };
    const stopping = stop.stoppedBy.filter((p) => p.action === 'stop');
    return {
        kind: 'stopped',
        time: stop.at,
        title: `Run ${stop.executionId}${stop.experimentKey ? ` of ${stop.experimentKey}` : ''} stopped while running by ${stop.policy}`,
        message: `The run guard cancelled the run: policy "${stop.policy}" no longer holds: ${stop.reason}`,
        run: { ...run, url: (0, run_link_1.runLink)(runUrl, run, stop.decisionId) },
        policies: (stopping.length > 0 ? stopping : stop.stoppedBy).map((p) => ({
            policy: p.policy,
            mode: p.mode,
            result: 'deny',
            reasons: [p.reason],
        })),
        by: 'the run guard',
        decisionId: stop.decisionId,
        revision: stop.revision,
    };
}
/**
 * A run whose dead-man signal has been silent too long, reported by the guard (`deadMan then:
 * report`, docs/guard.md): the run goes on; the policy's reason names the signal and since when.
 */
function signalSilentNotification(report, runUrl) {
    const stopped = runStoppedNotification(report, runUrl);
    return {
        ...stopped,
        kind: 'signal-silent',
        title: `Run ${report.executionId}${report.experimentKey ? ` of ${report.experimentKey}` : ''}: a signal policy ${report.policy} watches is silent`,
        message: `The run guard lets the run go on (deadMan then: report), but policy "${report.policy}" can no longer see it: ${report.reason}`,
        policies: report.stoppedBy.map((p) => ({
            policy: p.policy,
            mode: p.mode,
            result: 'warn',
            reasons: [p.reason],
        })),
    };
}
//# sourceMappingURL=event-notifications.js.map
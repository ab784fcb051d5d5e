"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.alertmanagerAlerts = alertmanagerAlerts;
const message_parts_1 = require("./message-parts");
const ALERT_NAMES = {
    denied: 'PreflightGateRunDenied',
    warned: 'PreflightGateRunWarned',
    waived: 'PreflightGateRunWaived',
    stopped: 'PreflightGateRunStopped',
    'signal-silent': 'PreflightGateRunSignalSilent',
    'policy-rejected': 'PreflightGatePolicySetRejected',
    'emergency-stop-engaged': 'PreflightGateEmergencyStop',
    'emergency-stop-released': 'PreflightGateEmergencyStop',
};
const SEVERITY = {
    denied: 'warning',
    stopped: 'warning',
    'signal-silent': 'warning',
    'policy-rejected': 'warning',
    'emergency-stop-engaged': 'critical',
    'emergency-stop-released': 'critical',
    warned: 'info',
    waived: 'info',
};
/**
 * One alert for POST /api/v2/alerts, so the operator's routes, silences and receivers apply. Its
 * labels say what happened and to what (kind, team, environment, experiment, policies), not which
 * run, so repeated denials are one alert; it resolves itself after `resolveAfterMs`. The emergency
 * stop is one alert: engaged fires it, released resolves it (endsAt now).
 */
function alertmanagerAlerts(delivery, resolveAfterMs, now) {
    const n = delivery.notification;
    const run = n.run;
    const labels = {
        alertname: ALERT_NAMES[n.kind],
        severity: SEVERITY[n.kind],
        service: 'preflight-gate',
    };
    if (!n.kind.startsWith('emergency-stop'))
        labels.kind = n.kind;
    if (run?.team)
        labels.team = run.team;
    if (run?.environment)
        labels.environment = run.environmentName ?? run.environment;
    if (run?.experimentKey)
        labels.experiment = run.experimentKey;
    if (n.policies.length > 0)
        labels.policies = n.policies.map((p) => p.policy).join(',');
    const description = [
        n.message,
        ...(0, message_parts_1.policyLines)(n.policies),
        ...(n.problems ?? []),
        ...(0, message_parts_1.messageFacts)(delivery).map((f) => `${f.label}: ${f.value}`),
    ].join('\n');
    const annotations = { summary: (0, message_parts_1.titleOf)(delivery), description };
    if (n.decisionId)
        annotations.decision_id = n.decisionId;
    if (n.exceptionHelp)
        annotations.exception_help = n.exceptionHelp;
    const startsAt = delivery.firstTime;
    const endsAt = n.kind === 'emergency-stop-released' ? now.toISOString() : new Date(now.getTime() + resolveAfterMs).toISOString();
    return JSON.stringify([{ labels, annotations, startsAt, endsAt, ...(run?.url ? { generatorURL: run.url } : {}) }]);
}
//# sourceMappingURL=alertmanager-alerts.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sampleNotification = sampleNotification;
const run_link_1 = require("./run-link");
/**
 * The message `preflight-gate notify --test` sends: a denial as the service would send it, marked
 * as a test in its title and message, so whoever sees it in a channel knows nothing was denied.
 */
function sampleNotification(now, runUrl, exceptionHelp) {
    const run = {
        executionId: 4711,
        experimentKey: 'ADM-12',
        experimentName: 'Checkout survives a pod loss',
        team: 'ADM',
        environment: 'production',
        startedBy: 'Jane Doe',
    };
    return {
        kind: 'denied',
        time: now.toISOString(),
        title: '[test] Run 4711 of ADM-12 denied by production-business-hours',
        message: '[test] This is a test message from preflight-gate notify --test: no run was denied. Denied by 1 policy: [production-business-hours] runs in production only Monday to Friday, 09:00-16:00 Europe/Berlin; now is Saturday 11:02',
        decisionId: '00000000-0000-4000-8000-000000000000',
        run: { ...run, url: (0, run_link_1.runLink)(runUrl, { ...run, team: run.team }) },
        policies: [
            {
                policy: 'production-business-hours',
                mode: 'enforce',
                result: 'deny',
                reasons: ['runs in production only Monday to Friday, 09:00-16:00 Europe/Berlin; now is Saturday 11:02'],
            },
        ],
        exceptionHelp,
        revision: '3f9c2a1b7d4e',
    };
}
//# sourceMappingURL=sample-notification.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STEADYBIT_EVENTS = void 0;
/** Steadybit's event names (CustomWebhookAO `events`); any other name is counted as `other`. */
exports.STEADYBIT_EVENTS = [
    'experiment.execution.requested',
    'experiment.execution.created',
    'experiment.execution.preflight',
    'experiment.execution.completed',
    'experiment.execution.failed',
    'experiment.execution.errored',
    'experiment.execution.canceled',
    'experiment.execution.step-started',
    'experiment.execution.step-completed',
    'experiment.execution.step-failed',
    'experiment.execution.step-errored',
    'experiment.execution.step-canceled',
    'experiment.execution.step-skipped',
    'killswitch.engaged',
    'killswitch.disengaged',
];
//# sourceMappingURL=event-outcome.js.map
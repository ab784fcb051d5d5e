"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NOTIFICATION_KINDS = void 0;
/**
 * What a person is told about: a run denied, allowed with warnings, allowed because an exception
 * waived a policy, stopped while running (by the run guard), a run's dead-man signal silent too
 * long (reported by the run guard, the run goes on), a policy reload rejected, the
 * emergency stop engaged or released. The names are those of the filters (`events:`) and the
 * generic webhook's `type` (`preflight-gate.<kind>`).
 */
exports.NOTIFICATION_KINDS = [
    'denied',
    'warned',
    'waived',
    'stopped',
    'signal-silent',
    'policy-rejected',
    'emergency-stop-engaged',
    'emergency-stop-released',
];
//# sourceMappingURL=notification.js.map
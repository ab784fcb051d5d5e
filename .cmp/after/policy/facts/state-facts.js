"use strict";
/**
 * The state part of the facts (Facts.state): what the service learned from Steadybit's custom
 * webhooks (POST /events), as a decision reads it. Plain JSON data, so a decision can be replayed
 * from it and `eval --state` / suite cases can give it (docs/state.md, `schema --state`).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.HISTORY_MS = exports.serviceScopeKey = exports.SERVICE_KEYS = exports.SCOPE_KINDS = exports.END_STATES = void 0;
exports.scopeKey = scopeKey;
exports.END_STATES = ['COMPLETED', 'FAILED', 'ERRORED', 'CANCELED'];
exports.SCOPE_KINDS = ['environment', 'team'];
/**
 * The target attributes runs are recorded under as attacked services (`service:k8s.deployment=checkout`),
 * from the targets `experiment.execution.created` lists: a fixed list, so a run is recorded before
 * any policy asks, and a policy naming another key is a load error rather than a cool-down that never
 * starts (docs/state.md).
 */
exports.SERVICE_KEYS = [
    'k8s.deployment',
    'k8s.statefulset',
    'k8s.daemonset',
    'k8s.service.name',
];
/** The key state is counted under: `team:adm`, `environment:production` (lower-cased). */
function scopeKey(kind, value) {
    return `${kind}:${value.toLowerCase()}`;
}
/**
 * The scope key of an attacked service: `service:k8s.deployment=checkout` (lower-cased). Cool-downs
 * can be per attacked service too (`per: service`); runs are recorded under these keys as well.
 */
const serviceScopeKey = (attribute, value) => `service:${attribute}=${value}`.toLowerCase();
exports.serviceScopeKey = serviceScopeKey;
/** Longest cool-down or quota window a policy may use: history is kept this long. */
exports.HISTORY_MS = 31 * 86_400_000;
//# sourceMappingURL=state-facts.js.map
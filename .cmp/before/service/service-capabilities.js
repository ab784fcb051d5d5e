"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.serviceCapabilities = serviceCapabilities;
const guard_view_1 = require("../guard/guard-view");
const run_guard_1 = require("../guard/run-guard");
const environment_fact_source_1 = require("../platform/environment-fact-source");
const team_fact_source_1 = require("../platform/team-fact-source");
const state_fact_source_1 = require("../state/state-fact-source");
const uncounted_exception_uses_1 = require("../state/uncounted-exception-uses");
const unconfigured_sources_1 = require("../signals/unconfigured-sources");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const decidedOf = (record) => record.route === '/preflight' ? record.decided : undefined;
const sameForBoth = (source) => ({ preflight: source, guard: source });
/** Why the Platform API's names are missing, for the messages of the needs that read them. */
const NO_PLATFORM_NAMES = 'no Platform API is configured (STEADYBIT_URL and an access token, docs/platform-api.md)';
/** The needs of one kind the policy set makes, as the start-up log and /readyz show what asked. */
const asksFor = (kind) => (bundle) => {
    const asked = bundle.needs.filter((n) => n.kind === kind);
    return asked.length > 0 ? { needs: asked } : undefined;
};
const countedExceptions = (bundle) => {
    const counted = bundle.exceptions.filter((e) => e.maxUses !== undefined).map((e) => e.name);
    return counted.length > 0 ? { exceptions: counted } : undefined;
};
const guardedPolicies = (bundle) => (0, guard_view_1.guardsRuns)(bundle)
    ? { policies: bundle.policies.filter((p) => p.whileRunning !== undefined).map((p) => p.name) }
    : undefined;
/**
 * The capabilities of a service built from `parts`, in the one order everything follows: fact
 * sources are asked in it (the state store, live signals, the Platform API's environment names
 * and team members, so a cheaper source answers first), answer subscribers are called in it after
 * audit and metrics (the archive, notifications, the guard), /readyz lists them in it.
 */
function serviceCapabilities(parts, logger) {
    const out = [];
    const { state, platform, signals } = parts;
    out.push({
        name: 'policies',
        provides: [],
        needs: [
            {
                feature: 'team-members',
                asks: asksFor('team-members'),
                lacking: 'warning',
                message: `policies read Steadybit's team members (createdByTeams, approvers of owners' exceptions), but ${NO_PLATFORM_NAMES}: those rules cannot decide and deny, and those exceptions waive nothing`,
            },
        ],
    });
    if (state)
        out.push({
            name: 'state',
            provides: state.keepsExceptionUses === false ? ['state'] : ['state', 'lasting-exception-uses'],
            needs: [],
            sources: [sameForBoth((0, state_fact_source_1.stateFactSource)({ ...state, logger }))],
            routes: (ctx) => ctx.eventsRoute(state),
            policies: (0, built_in_policies_1.builtInPolicies)(state.emergencyStop),
            // preflight_state_store_up: the store's health at every scrape.
            observe: (metrics) => metrics.observeStateStore(() => state.store.health()),
            readiness: () => ({ ...state.store.health(), onUnavailable: state.onUnavailable }),
            ...(parts.settleOverlap ? { settleOverlap: parts.settleOverlap } : {}),
        });
    if (parts.sources?.length)
        out.push({ name: 'sources', provides: [], needs: [], sources: parts.sources.map(sameForBoth) });
    if (signals)
        out.push({
            name: 'signals',
            provides: ['signals'],
            // Shown in /readyz `lacking`; the signal source logs them itself, as a reloaded set first asks one.
            needs: ['deny', 'allow'].map((onUnavailable) => ({
                feature: 'signal-sources',
                asks: (bundle) => {
                    const sources = signals.unconfigured(bundle.needs, onUnavailable);
                    return sources.length > 0 ? { sources } : undefined;
                },
                lacking: 'warning',
                message: onUnavailable === 'deny' ? unconfigured_sources_1.UNCONFIGURED_SOURCES_WARNING : unconfigured_sources_1.UNCONFIGURED_FAIL_OPEN_ERROR,
                loggedByCapability: true,
            })),
            sources: [{ preflight: signals.preflight, guard: signals.guard }],
            nextTick: () => signals.nextTick(),
        });
    if (platform)
        out.push({
            name: 'platform',
            provides: [
                'platform-names',
                ...(platform.teams ? ['team-members'] : []),
                ...(platform.cancels ? ['cancel-runs'] : []),
            ],
            needs: [],
            sources: [
                sameForBoth((0, environment_fact_source_1.environmentFactSource)(platform.directory)),
                ...(platform.teams ? [sameForBoth((0, team_fact_source_1.teamFactSource)(platform.teams))] : []),
            ],
            readiness: platform.health,
        });
    const { archive, notifier, guard, playground } = parts;
    if (archive)
        out.push({
            name: 'archive',
            provides: ['archive'],
            needs: [],
            onAnswer: {
                name: 'the decision archive',
                onAnswer(record) {
                    const decided = decidedOf(record);
                    // The archive keeps the body as it was signed, with what the bundle's rules needed.
                    if (decided && record.route === '/preflight')
                        archive.record({ ...decided, payload: record.body, needs: decided.bundle.needs });
                },
            },
        });
    if (notifier)
        out.push({
            name: 'notifications',
            provides: ['notifications'],
            needs: [],
            onAnswer: {
                name: 'notifications',
                onAnswer(record) {
                    const decided = decidedOf(record);
                    if (decided)
                        notifier.decided(decided);
                },
            },
        });
    if (guard)
        out.push({
            name: 'guard',
            provides: ['guard'],
            needs: [
                {
                    feature: 'cancel-runs',
                    asks: guardedPolicies,
                    lacking: 'warning',
                    message: `guard: policies ask to guard runs in progress, but ${run_guard_1.NO_PLATFORM}`,
                },
            ],
            onAnswer: {
                name: 'the guard',
                onAnswer(record) {
                    const decided = decidedOf(record);
                    if (decided)
                        guard.keep(decided.decision, decided.payload, decided.now);
                },
            },
            readiness: () => guard.health(),
        });
    if (state)
        out.push({
            name: 'approvals',
            provides: ['approvals'],
            takeExceptionUses: (uses, now) => state.store.takeExceptionUses(uses, now),
            needs: [
                {
                    feature: 'lasting-exception-uses',
                    asks: countedExceptions,
                    lacking: 'warning',
                    message: `exceptions with maxUses do not waive any run: ${uncounted_exception_uses_1.USES_NOT_KEPT}`,
                },
            ],
        });
    if (playground)
        out.push({
            name: 'playground',
            provides: ['playground'],
            needs: [],
            routes: (ctx) => ctx.playgroundRoute(playground),
        });
    return out;
}
//# sourceMappingURL=service-capabilities.js.map
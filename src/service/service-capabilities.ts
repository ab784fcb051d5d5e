import type { DecisionArchive } from '../archive/decision-archive';
import { guardsRuns } from '../guard/guard-view';
import { NO_PLATFORM, type RunGuard } from '../guard/run-guard';
import type { Notifier } from '../notify/notifier';
import type { Logger } from '../common/logger';
import type { EnvironmentDirectory } from '../platform/environment-directory';
import { environmentFactSource } from '../platform/environment-fact-source';
import type { TeamDirectory } from '../platform/team-directory';
import { teamFactSource } from '../platform/team-fact-source';
import type { PageFile } from '../playground/playground-page';
import type { PolicyBundle } from '../policy/core/compiled';
import type { FactSource } from '../policy/core/fact-source';
import type { Need } from '../policy/facts/need';
import type { ServiceSignals } from '../signals/service-signal-source';
import type { GuardrailState } from '../state/guardrail-state';
import type { SettleOverlap } from '../guard/settle-overlap';
import { stateFactSource } from '../state/state-fact-source';
import { USES_NOT_KEPT } from '../state/uncounted-exception-uses';
import { UNCONFIGURED_FAIL_OPEN_ERROR, UNCONFIGURED_SOURCES_WARNING } from '../signals/unconfigured-sources';
import type { AnswerRecord, DecidedPreflight } from '../answer/answer-record';
import type { Capability, CapabilitySource } from './capability';
import { builtInPolicies } from '../policy/compile/built-in-policies';

/**
 * What the service is built from, by name: each part given is a capability the service has, a
 * part left out one it lacks (build-service.ts gives them from the config, tests what they test).
 */
export interface ServiceParts {
  /** Guardrails with memory: the state store (docs/state.md). */
  state?: GuardrailState;
  /** noOverlap rules decided one at a time across replicas, on the guard's store (settle-overlap.ts). */
  settleOverlap?: SettleOverlap;
  /** The Steadybit Platform API (docs/platform-api.md): its names, its sync shown in /readyz, its cancel. */
  platform?: {
    directory: EnvironmentDirectory;
    teams?: TeamDirectory;
    health?: () => object;
    /** The guard can cancel runs through it. */
    cancels?: boolean;
  };
  /** Live signals: the deployment's Alertmanager and Prometheus sources (docs/signals.md). */
  signals?: ServiceSignals;
  /** Fact sources given as they are (tests), asked after the state store's. */
  sources?: readonly FactSource[];
  /** Records every decision (DECISION_ARCHIVE, docs/replay.md). */
  archive?: Pick<DecisionArchive, 'record'>;
  /** Notifications of decisions (docs/notifications.md); the emergency stop is told by the state store (notifying-state-store.ts). */
  notifier?: Pick<Notifier, 'decided'>;
  /** Guards allowed runs while they are in progress (docs/guard.md). */
  guard?: Pick<RunGuard, 'keep' | 'health'>;
  /** The playground page's files (PLAYGROUND=on, docs/playground.md), served at /playground/. */
  playground?: ReadonlyMap<string, PageFile>;
}

const decidedOf = (record: AnswerRecord): DecidedPreflight | undefined =>
  record.route === '/preflight' ? record.decided : undefined;

const sameForBoth = (source: FactSource): CapabilitySource => ({ preflight: source, guard: source });

/** Why the Platform API's names are missing, for the messages of the needs that read them. */
const NO_PLATFORM_NAMES = 'no Platform API is configured (STEADYBIT_URL and an access token, docs/platform-api.md)';

/** The needs of one kind the policy set makes, as the start-up log and /readyz show what asked. */
const asksFor = (kind: Need['kind']) => (bundle: PolicyBundle) => {
  const asked = bundle.needs.filter((n) => n.kind === kind);
  return asked.length > 0 ? { needs: asked } : undefined;
};

const countedExceptions = (bundle: PolicyBundle) => {
  const counted = bundle.exceptions.filter((e) => e.maxUses !== undefined).map((e) => e.name);
  return counted.length > 0 ? { exceptions: counted } : undefined;
};

const guardedPolicies = (bundle: PolicyBundle) =>
  guardsRuns(bundle)
    ? { policies: bundle.policies.filter((p) => p.whileRunning !== undefined).map((p) => p.name) }
    : undefined;

/**
 * The capabilities of a service built from `parts`, in the one order everything follows: fact
 * sources are asked in it (the state store, live signals, the Platform API's environment names
 * and team members, so a cheaper source answers first), answer subscribers are called in it after
 * audit and metrics (the archive, notifications, the guard), /readyz lists them in it.
 */
export function serviceCapabilities(parts: ServiceParts, logger: Logger): Capability[] {
  const out: Capability[] = [];
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
      sources: [sameForBoth(stateFactSource({ ...state, logger }))],
      routes: (ctx) => ctx.eventsRoute(state),
      policies: builtInPolicies(state.emergencyStop),
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
      needs: (['deny', 'allow'] as const).map((onUnavailable) => ({
        feature: 'signal-sources' as const,
        asks: (bundle: PolicyBundle) => {
          const sources = signals.unconfigured(bundle.needs, onUnavailable);
          return sources.length > 0 ? { sources } : undefined;
        },
        lacking: 'warning' as const,
        message: onUnavailable === 'deny' ? UNCONFIGURED_SOURCES_WARNING : UNCONFIGURED_FAIL_OPEN_ERROR,
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
        ...(platform.teams ? (['team-members'] as const) : []),
        ...(platform.cancels ? (['cancel-runs'] as const) : []),
      ],
      needs: [],
      sources: [
        sameForBoth(environmentFactSource(platform.directory)),
        ...(platform.teams ? [sameForBoth(teamFactSource(platform.teams))] : []),
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
          if (decided) notifier.decided(decided);
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
          message: `guard: policies ask to guard runs in progress, but ${NO_PLATFORM}`,
        },
      ],
      onAnswer: {
        name: 'the guard',
        onAnswer(record) {
          const decided = decidedOf(record);
          if (decided) guard.keep(decided.decision, decided.payload, decided.now);
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
          message: `exceptions with maxUses do not waive any run: ${USES_NOT_KEPT}`,
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

import type { RequestHandler } from 'express';
import type { TakeUses } from '../approvals/settle-exception-uses';
import type { Logger } from '../common/logger';
import type { Metrics } from '../observability/metrics';
import type { PageFile } from '../playground/playground-page';
import type { CompiledPolicy, PolicyBundle } from '../policy/core/compiled';
import type { FactSource } from '../policy/core/fact-source';
import type { GuardrailState } from '../state/guardrail-state';
import type { AnswerSubscriber } from '../answer/answer-record';
import type { SettleOverlap } from '../guard/settle-overlap';

/** The service's capabilities, in the order the root declares them (service-capabilities.ts). */
export type CapabilityName =
  /** The policy set itself: what its rules read from outside the payload. */
  | 'policies'
  | 'state'
  | 'platform'
  | 'signals'
  /** Fact sources given as they are (tests), asked after the state store's. */
  | 'sources'
  | 'archive'
  | 'notifications'
  | 'guard'
  | 'approvals'
  | 'playground';

/** What one capability gives the rest of the service; another capability's need names one. */
export type Feature =
  /** Guardrails with memory: state facts, POST /events (docs/state.md). */
  | 'state'
  /** Uses of exceptions with maxUses counted where they last (Redis or EXCEPTION_USES_FILE, docs/approvals.md). */
  | 'lasting-exception-uses'
  /** Steadybit's names of environments (docs/platform-api.md). */
  | 'platform-names'
  /** Steadybit's team members (docs/platform-api.md): `createdByTeams`, the approvers of owners' exceptions. */
  | 'team-members'
  /** Cancelling a run in progress through the Platform API (docs/guard.md). */
  | 'cancel-runs'
  /** A signal source of every name the policies ask: checked by name, never provided as a whole (docs/signals.md). */
  | 'signal-sources'
  | 'signals'
  | 'archive'
  | 'notifications'
  | 'guard'
  | 'approvals'
  | 'playground';

/**
 * Something a capability needs when the policy set asks for it. The root checks every need
 * against what the capabilities present provide (check-needs.ts); one not provided is a start-up
 * error or a warning (logged at start, shown in /readyz `lacking`), as `lacking` says.
 */
export interface CapabilityNeed {
  readonly feature: Feature;
  /** What in the policy set asks for it (logged with the message), or undefined: the set does not. */
  asks(bundle: PolicyBundle): object | undefined;
  readonly lacking: 'error' | 'warning';
  /** What the service cannot do without it, for people. */
  readonly message: string;
  /** The capability says it in the log itself (at start, and when a reloaded set first asks): /readyz only. */
  readonly loggedByCapability?: boolean;
}

/** A source asked for each preflight and at each guard tick (its guard variant, when it caches differently). */
export interface CapabilitySource {
  readonly preflight: FactSource;
  readonly guard: FactSource;
}

/** What a capability's routes are built with: the app's own (create-app.ts). */
export interface RouteContext {
  logger: Logger;
  /** POST /events (events-route.ts), on the given state. */
  eventsRoute(state: GuardrailState): RequestHandler;
  playgroundRoute(files: ReadonlyMap<string, PageFile>): RequestHandler;
}

/**
 * One capability of the service: what it provides, what it needs, and how it is wired. The root
 * builds the app from these declarations alone (createApp): fact sources in declaration order,
 * answer subscribers in declaration order, routes, and /readyz.
 */
export interface Capability {
  readonly name: CapabilityName;
  readonly provides: readonly Feature[];
  readonly needs: readonly CapabilityNeed[];
  /** Fact sources, asked after those of the capabilities declared before it. */
  readonly sources?: readonly CapabilitySource[];
  /** Starts a guard tick: sources that cache per tick read anew (RunGuardDeps.nextTick). */
  nextTick?(): void;
  /** Told of each answer once it is out (answer-record.ts). */
  readonly onAnswer?: AnswerSubscriber;
  /** Routes it serves (Express), before the 404. */
  routes?(ctx: RouteContext): RequestHandler;
  /** Built-in policies it adds to every set served (the emergency stop), before the loaded ones. */
  readonly policies?: readonly CompiledPolicy[];
  /** Takes uses of exceptions with maxUses (approvals.md); none: such an exception never waives a run. */
  readonly takeExceptionUses?: TakeUses;
  /** Decides the allowed runs of a set with noOverlap rules one at a time (settle-overlap.ts); none: as decided. */
  readonly settleOverlap?: SettleOverlap;
  /** Registers what the service's metrics read of it at each scrape. */
  observe?(metrics: Metrics): void;
  /** Shown in /readyz under the capability's name; never a readiness condition. */
  readiness?(): object | undefined;
}

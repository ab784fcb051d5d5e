import type { Logger } from '../common/logger';
import type { PolicyBundle } from '../policy/core/compiled';
import type { Capability, CapabilityName, Feature } from './capability';

/** A need the policy set makes and no capability present provides. */
export interface LackingNeed {
  readonly capability: CapabilityName;
  readonly feature: Feature;
  readonly lacking: 'error' | 'warning';
  readonly message: string;
  /** What in the policy set asks for it. */
  readonly asked: object;
  /** Logged by its capability, not again at start (CapabilityNeed.loggedByCapability). */
  readonly loggedByCapability?: boolean;
}

/**
 * Every need of the capabilities present that the policy set makes and none of them provides:
 * the one place that decides what a policy set may ask of this service (start-up: logged, an
 * `error` refuses to start; /readyz: `lacking`, for the set in use).
 */
export function checkNeeds(capabilities: readonly Capability[], bundle: PolicyBundle | undefined): LackingNeed[] {
  if (!bundle) return [];
  const provided = new Set<Feature>(capabilities.flatMap((c) => c.provides));
  const out: LackingNeed[] = [];
  for (const capability of capabilities)
    for (const need of capability.needs) {
      if (provided.has(need.feature)) continue;
      const asked = need.asks(bundle);
      if (asked)
        out.push({
          capability: capability.name,
          feature: need.feature,
          lacking: need.lacking,
          message: need.message,
          asked,
          ...(need.loggedByCapability ? { loggedByCapability: true } : {}),
        });
    }
  return out;
}

/** A policy set that asks what the service lacks and cannot do without: the service does not start. */
export class LackingNeedError extends Error {
  constructor(readonly lacking: readonly LackingNeed[]) {
    super(`the policy set needs what this service lacks: ${lacking.map((l) => l.message).join('; ')}`);
    this.name = 'LackingNeedError';
  }
}

/** At start-up: every need lacking is logged as a warning, with what asked for it; an `error` one refuses to start. */
export function checkNeedsAtStart(
  capabilities: readonly Capability[],
  bundle: PolicyBundle | undefined,
  logger: Pick<Logger, 'warn'>,
): void {
  const lacking = checkNeeds(capabilities, bundle);
  const refused = lacking.filter((l) => l.lacking === 'error');
  if (refused.length > 0) throw new LackingNeedError(refused);
  for (const l of lacking) if (!l.loggedByCapability) logger.warn(l.message, { ...l.asked });
}

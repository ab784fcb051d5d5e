import type { PreflightPayload } from '../../payload/types';
import type { PolicyBundle } from '../core/compiled';
import type { EnvironmentDirectory } from '../core/environment-directory';
import type { FactSource, Gathered } from '../core/fact-source';
import type { EnvironmentFacts } from '../facts/environment-facts';
import type { Facts } from '../facts/facts';
import type { Need } from '../facts/need';

const NOTHING_NEEDED: Gathered = Object.freeze({ ok: true, facts: Object.freeze({}) });

/** A source and the needs it is asked for: those of its kinds. */
interface Asking {
  source: FactSource;
  own: readonly Need[];
  /** It answers `environment-names`, which a source that readsEnvironmentNames waits for. */
  names: boolean;
}

/** Which of `needs` each source is asked for, in the sources' order; a source with none is left out. */
function askingOf(needs: readonly Need[], sources: readonly FactSource[]): Asking[] {
  const asking: Asking[] = [];
  for (const source of sources) {
    const own = needs.filter((need) => source.kinds.includes(need.kind));
    if (own.length > 0) asking.push({ source, own, names: own.some((need) => need.kind === 'environment-names') });
  }
  return asking;
}

/**
 * Asks each source only for the needs of its kinds (the bundle's rules declared them at load), all
 * at once, and joins their parts into one Facts. A source that fills `{{environment}}`
 * (readsEnvironmentNames) is asked once the environment names are in, with them, so it asks about
 * the name the decision will read. A need no source answers is left out: its rule cannot decide.
 * The first source that is unavailable is the answer.
 */
export async function gatherFacts(
  needs: readonly Need[],
  sources: readonly FactSource[],
  payload: PreflightPayload,
  now: Date,
  directory?: EnvironmentDirectory,
): Promise<Gathered> {
  return gatherAsking(askingOf(needs, sources), payload, now, directory);
}

/**
 * gatherFacts of a bundle's needs over fixed `sources`, for a service that asks them before every
 * decision: which source is asked for which needs is worked out once per needs list (a bundle's,
 * frozen at load) and kept while that list lives. The bundle's environment names fill `{{environment}}`.
 */
export function factGatherer(
  sources: readonly FactSource[],
): (bundle: PolicyBundle, payload: PreflightPayload, now: Date) => Promise<Gathered> {
  const asked = new WeakMap<readonly Need[], Asking[]>();
  return (bundle, payload, now) => {
    let asking = asked.get(bundle.needs);
    if (asking === undefined) {
      asking = askingOf(bundle.needs, sources);
      asked.set(bundle.needs, asking);
    }
    return gatherAsking(asking, payload, now, bundle);
  };
}

function gatherAsking(
  asking: readonly Asking[],
  payload: PreflightPayload,
  now: Date,
  directory?: EnvironmentDirectory,
): Promise<Gathered> {
  if (asking.length === 0) return Promise.resolve(NOTHING_NEEDED);
  // One source (the state store alone, as in most deployments): its answer is the answer, with
  // nothing to wait for or join. A source that reads environment names gets none, as it would below.
  if (asking.length === 1) return asking[0].source.gather(asking[0].own, payload, now, directory);
  return gatherFromAll(asking, payload, now, directory);
}

async function gatherFromAll(
  asking: readonly Asking[],
  payload: PreflightPayload,
  now: Date,
  directory?: EnvironmentDirectory,
): Promise<Gathered> {
  const asked: Array<Promise<Gathered>> = [];
  const namers: Array<Promise<Gathered>> = [];
  const readers: Asking[] = [];
  for (const one of asking) {
    if (one.source.readsEnvironmentNames) {
      readers.push(one);
      continue;
    }
    const answer = one.source.gather(one.own, payload, now, directory);
    asked.push(answer);
    if (one.names) namers.push(answer);
  }
  if (readers.length > 0) {
    const named = await Promise.all(namers);
    const parts = named.flatMap((a) => (a.ok && a.facts.environments ? [a.facts.environments] : []));
    const environments: EnvironmentFacts | undefined = parts.length > 0 ? Object.assign({}, ...parts) : undefined;
    for (const { source, own } of readers) asked.push(source.gather(own, payload, now, directory, environments));
  }
  const answers = await Promise.all(asked);
  const facts: Facts = {};
  for (const answer of answers) {
    if (!answer.ok) return answer;
    Object.assign(facts, answer.facts);
  }
  return { ok: true, facts };
}

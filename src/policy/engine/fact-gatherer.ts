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
  /** It answers `environment-names`, which the readers wait for. */
  names: boolean;
}

/**
 * Who is asked for what, for one needs list: the sources asked at once, and the readers, sources
 * that fill `{{environment}}` (readsEnvironmentNames) and so are asked once the names are in. A
 * source none of whose kinds is needed is not asked.
 */
interface Plan {
  needs: readonly Need[];
  first: readonly Asking[];
  readers: readonly Asking[];
  /** How many sources are asked in all. */
  count: number;
}

function planFor(needs: readonly Need[], sources: readonly FactSource[]): Plan {
  const first: Asking[] = [];
  const readers: Asking[] = [];
  for (const source of sources) {
    const own = needs.filter((need) => source.kinds.includes(need.kind));
    if (own.length === 0) continue;
    const asking = { source, own, names: own.some((need) => need.kind === 'environment-names') };
    (source.readsEnvironmentNames ? readers : first).push(asking);
  }
  return { needs, first, readers, count: first.length + readers.length };
}

/**
 * The facts a bundle's rules need (declared at load, PolicyBundle.needs), from `sources`: each
 * source is asked only for the needs of its kinds, all at once, and their parts are joined into
 * one Facts. A reader is asked once the environment names are in, with them, so it asks about the
 * name the decision will read; the bundle's environment names fill `{{environment}}`. A need no
 * source answers is left out: its rule cannot decide. The first source that is unavailable is the
 * answer. Who is asked for what is worked out once per bundle (its needs are frozen at load) and
 * kept until another bundle comes; `sources` and their kinds are fixed for the gatherer's life.
 */
export function factGatherer(
  sources: readonly FactSource[],
): (bundle: PolicyBundle, payload: PreflightPayload, now: Date) => Promise<Gathered> {
  const fixed = [...sources];
  let plan: Plan | undefined;
  return (bundle, payload, now) => {
    try {
      if (plan?.needs !== bundle.needs) plan = planFor(bundle.needs, fixed);
      return gather(plan, payload, now, bundle);
    } catch (err) {
      // A source that throws (a bug) rejects, as an async gatherer would.
      return Promise.reject(err);
    }
  };
}

/** The plan's answers: none asked, one asked (its answer is the answer), or all of them joined. */
function gather(plan: Plan, payload: PreflightPayload, now: Date, directory: EnvironmentDirectory): Promise<Gathered> {
  if (plan.count === 0) return Promise.resolve(NOTHING_NEEDED);
  // One source (the state store alone, as in most deployments): nothing to wait for or join. A
  // reader alone gets no names, as it would below.
  if (plan.count === 1) {
    const [only] = plan.first.length === 1 ? plan.first : plan.readers;
    return only.source.gather(only.own, payload, now, directory);
  }
  return gatherAll(plan, payload, now, directory);
}

async function gatherAll(
  plan: Plan,
  payload: PreflightPayload,
  now: Date,
  directory: EnvironmentDirectory,
): Promise<Gathered> {
  const asked = plan.first.map((one) => one.source.gather(one.own, payload, now, directory));
  if (plan.readers.length > 0) {
    const named = await Promise.all(asked.filter((_, i) => plan.first[i].names));
    const parts = named.flatMap((a) => (a.ok && a.facts.environments ? [a.facts.environments] : []));
    const environments: EnvironmentFacts | undefined = parts.length > 0 ? Object.assign({}, ...parts) : undefined;
    for (const { source, own } of plan.readers) asked.push(source.gather(own, payload, now, directory, environments));
  }
  const answers = await Promise.all(asked);
  const facts: Facts = {};
  for (const answer of answers) {
    if (!answer.ok) return answer;
    Object.assign(facts, answer.facts);
  }
  return { ok: true, facts };
}

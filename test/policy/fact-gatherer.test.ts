import type { PolicyBundle } from '../../src/policy/core/compiled';
import type { FactSource, Gathered } from '../../src/policy/core/fact-source';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { Need, NeedKind } from '../../src/policy/facts/need';
import { factGatherer } from '../../src/policy/engine/gather-facts';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { tempDirs } from '../cli/run-cli';
import { examplePreflight } from '../helpers/policy-sets/bench-payloads';

// factGatherer keeps, per bundle, which source is asked for which needs. A reload brings a new
// bundle with other needs: the sources must be asked for those, never for the old bundle's.
const now = new Date('2026-01-05T10:00:00Z');
const STOP = 'kind: Policy\nname: stop\nrules:\n  - emergencyStop: {}\n';
const BURN = `kind: Policy
name: burn
rules:
  - prometheus:
      query: 'slo:burn{team="a"}'
      denyWhen: "> 14.4"
`;

const dir = tempDirs();
function bundleOf(files: Record<string, string>): PolicyBundle {
  const loaded = loadPolicyDir(dir(files), now);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.bundle;
}

/** A source of `kinds` that records what it is asked and answers `answer`. */
function recording(name: string, kinds: NeedKind[], answer: Gathered = { ok: true, facts: {} }) {
  const asked: Need[][] = [];
  const source: FactSource = {
    name,
    kinds,
    gather: async (needs) => {
      asked.push([...needs]);
      return answer;
    },
  };
  return { source, asked };
}

const payload: PreflightPayload = examplePreflight();

describe('factGatherer: sources asked for the needs of the bundle at hand', () => {
  it('asks each source only for its kinds, and a source none of whose kinds is needed not at all', async () => {
    const state = recording('state', ['emergency-stop']);
    const signals = recording('signals', ['prometheus']);
    const gather = factGatherer([state.source, signals.source]);
    const gathered = await gather(bundleOf({ 'stop.yaml': STOP }), payload, now);
    expect(gathered.ok).toBe(true);
    expect(state.asked).toEqual([[{ kind: 'emergency-stop' }]]);
    expect(signals.asked).toEqual([]);
  });

  it('asks for the new needs after a reload, and again for the first bundle when it is given again', async () => {
    const state = recording('state', ['emergency-stop']);
    const signals = recording('signals', ['prometheus']);
    const gather = factGatherer([state.source, signals.source]);
    const first = bundleOf({ 'stop.yaml': STOP });
    const second = bundleOf({ 'burn.yaml': BURN });
    await gather(first, payload, now);
    await gather(second, payload, now);
    await gather(second, payload, now);
    await gather(first, payload, now);
    expect(state.asked).toEqual([[{ kind: 'emergency-stop' }], [{ kind: 'emergency-stop' }]]);
    expect(signals.asked).toEqual([
      [{ kind: 'prometheus', source: 'default', query: 'slo:burn{team="a"}' }],
      [{ kind: 'prometheus', source: 'default', query: 'slo:burn{team="a"}' }],
    ]);
  });

  it('answers with the first unavailable source, and with no facts when the bundle needs none', async () => {
    const unavailable: Gathered = { ok: false, unavailable: { source: 'state', message: 'down' } };
    const gather = factGatherer([recording('state', ['emergency-stop'], unavailable).source]);
    expect(await gather(bundleOf({ 'stop.yaml': STOP }), payload, now)).toEqual(unavailable);
    expect(await gather(bundleOf({ 'burn.yaml': BURN }), payload, now)).toEqual({ ok: true, facts: {} });
  });
});

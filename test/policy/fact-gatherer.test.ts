import type { PolicyBundle } from '../../src/policy/core/compiled';
import type { FactSource, Gathered } from '../../src/policy/core/fact-source';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { Need, NeedKind } from '../../src/policy/facts/need';
import { factGatherer } from '../../src/policy/engine/fact-gatherer';
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

const NO_NEEDS = 'kind: Policy\nname: short\nrules:\n  - parameters: {duration: {max: 5m}}\n';

const dir = tempDirs();
function bundleOf(files: Record<string, string>): PolicyBundle {
  const loaded = loadPolicyDir(dir(files), now);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.bundle;
}

/** A source of `kinds` that records what it is asked, and with which directory, and answers `answer`. */
function recording(name: string, kinds: NeedKind[], answer: Gathered = { ok: true, facts: {} }) {
  const asked: Need[][] = [];
  const directories: unknown[] = [];
  const source: FactSource = {
    name,
    kinds,
    gather: async (needs, _payload, _now, directory) => {
      asked.push([...needs]);
      directories.push(directory);
      return answer;
    },
  };
  return { source, asked, directories };
}

const payload: PreflightPayload = examplePreflight();

describe('factGatherer: sources asked for the needs of the bundle at hand', () => {
  it('asks each source only for its kinds, and a source none of whose kinds is needed not at all', async () => {
    const state = recording('state', ['emergency-stop']);
    const signals = recording('signals', ['prometheus']);
    const gather = factGatherer([state.source, signals.source]);
    const bundle = bundleOf({ 'stop.yaml': STOP });
    const gathered = await gather(bundle, payload, now);
    expect(gathered.ok).toBe(true);
    expect(state.asked).toEqual([[{ kind: 'emergency-stop' }]]);
    expect(state.directories[0]).toBe(bundle);
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

  it('asks two sources at once, joins their parts, and gives each the bundle as its environment directory', async () => {
    const state = recording('state', ['emergency-stop'], {
      ok: true,
      facts: { state: { emergencyStop: { engaged: false } } },
    });
    const signals = recording('signals', ['prometheus'], { ok: true, facts: { signals: { prometheus: {} } } });
    const bundle = bundleOf({ 'stop.yaml': STOP, 'burn.yaml': BURN });
    const gathered = await factGatherer([state.source, signals.source])(bundle, payload, now);
    expect(gathered).toEqual({
      ok: true,
      facts: { state: { emergencyStop: { engaged: false } }, signals: { prometheus: {} } },
    });
    expect(state.asked).toEqual([[{ kind: 'emergency-stop' }]]);
    expect(signals.asked).toEqual([[{ kind: 'prometheus', source: 'default', query: 'slo:burn{team="a"}' }]]);
    expect(state.directories).toEqual([bundle]);
    expect(signals.directories[0]).toBe(bundle);
  });

  it('answers with the first unavailable source, in the order the sources are given', async () => {
    const down = (source: string): Gathered => ({ ok: false, unavailable: { source, message: `${source} down` } });
    const bundle = bundleOf({ 'stop.yaml': STOP, 'burn.yaml': BURN });
    const state = recording('state', ['emergency-stop'], down('state'));
    const signals = recording('signals', ['prometheus'], down('signals'));
    expect(await factGatherer([state.source, signals.source])(bundle, payload, now)).toEqual(down('state'));
    expect(await factGatherer([signals.source, state.source])(bundle, payload, now)).toEqual(down('signals'));
    const upFirst = recording('state', ['emergency-stop']);
    expect(await factGatherer([upFirst.source, signals.source])(bundle, payload, now)).toEqual(down('signals'));
  });

  it('asks no source for a bundle that needs nothing, and rejects when a source throws', async () => {
    const state = recording('state', ['emergency-stop']);
    expect(await factGatherer([state.source])(bundleOf({ 'p.yaml': NO_NEEDS }), payload, now)).toEqual({
      ok: true,
      facts: {},
    });
    expect(state.asked).toEqual([]);
    const broken: FactSource = {
      name: 'broken',
      kinds: ['emergency-stop'],
      gather: () => {
        throw new Error('bug');
      },
    };
    await expect(factGatherer([broken])(bundleOf({ 'stop.yaml': STOP }), payload, now)).rejects.toThrow('bug');
  });
});

import type { GuardStore } from '../../src/guard/guard-store';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import { RunsInProgress } from '../../src/guard/runs-in-progress';
import type { Need } from '../../src/policy/facts/need';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { stateFactSource } from '../../src/state/state-fact-source';
import { StateUnavailableError } from '../../src/state/state-store';
import { capturingLogger } from '../helpers/capturing-logger';
import { preflightWith } from '../helpers/fixtures';
import { TIMING } from './store-table';

const NOW = new Date('2026-01-05T10:00:00Z');
const NEEDS: Need[] = [
  { kind: 'emergency-stop' },
  { kind: 'in-progress' },
  { kind: 'in-progress', attribute: 'container.host' },
];
const run = preflightWith((p) => {
  p.execution.id = 1;
});
const source = (inProgress: RunsInProgress | undefined, onUnavailable: 'deny' | 'allow' = 'deny') =>
  stateFactSource({ store: new MemoryStateStore(TIMING), onUnavailable, logger: capturingLogger().logger, inProgress });

/** A guard store that cannot be reached (Redis down). */
const away: GuardStore = Object.assign(Object.create(new MemoryGuardStore()) as GuardStore, {
  ids: async () => {
    throw new StateUnavailableError('Redis is not connected');
  },
});

describe('the state source gathers the runs in progress next to the state', () => {
  test('only the runs sharing a target or an asked value of this run, with the rest of the state', async () => {
    const store = new MemoryGuardStore(() => NOW.getTime());
    const other = preflightWith((p) => {
      p.execution.id = 9;
      p.execution.teamKey = 'OPS';
    });
    await store.keep(
      { executionId: '9', decisionId: 'd', allowedAt: NOW.toISOString(), revision: 'r', payload: other },
      NOW.getTime() + 60_000,
      NOW.getTime(),
    );
    const gathered = await source(new RunsInProgress(store)).gather(NEEDS, run, NOW);
    expect(gathered).toEqual({
      ok: true,
      facts: {
        state: {
          emergencyStop: expect.objectContaining({ engaged: false }),
          inProgress: {
            runs: { '9': { experimentKey: 'ADM-1', team: 'OPS', since: NOW.toISOString() } },
            targets: {
              'com.steadybit.extension_container.container/docker://1f769d01b9c5cd29bb302ca40157274f38798104208117b3310825ba676883ea':
                ['9'],
            },
            attributes: { 'container.host': { 'docker-desktop': ['9'] } },
          },
        },
      },
    });
  });

  test('without the guard store the part is not gathered: the rule cannot decide', async () => {
    const gathered = await source(undefined).gather(NEEDS, run, NOW);
    expect(gathered.ok && gathered.facts.state?.inProgress).toBeUndefined();
  });

  test('the guard store away refuses the run (STATE_UNAVAILABLE=deny), or decides on no run in progress (allow)', async () => {
    expect(await source(new RunsInProgress(away)).gather(NEEDS, run, NOW)).toEqual({
      ok: false,
      unavailable: { source: 'state store', message: expect.stringContaining('Redis is not connected') },
    });
    const allowed = await source(new RunsInProgress(away), 'allow').gather(NEEDS, run, NOW);
    expect(allowed.ok && allowed.facts.state?.inProgress).toEqual({ runs: {}, targets: {}, attributes: {} });
  });
});

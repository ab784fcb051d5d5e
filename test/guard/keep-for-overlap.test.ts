import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import { guardUnderTest, TestClock } from './guard-harness';

const NOW = '2026-01-05T10:00:00Z';
const run = (id: number) =>
  preflightWith((p) => {
    p.execution.id = id;
  });
const policy = (rule: string) => ({ 'p.yaml': `kind: Policy\nname: p\nrules:\n  - ${rule}\n` });

describe('what the guard keeps for noOverlap rules (docs/guard.md, "What the gate keeps")', () => {
  test('a set with a noOverlap rule and no whileRunning policy keeps every allowed run, and never judges it again', async () => {
    const clock = new TestClock(new Date(NOW));
    const g = guardUnderTest(bundleFrom(policy('noOverlap: {by: [host.hostname]}')), clock);
    g.allow(run(51));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await g.runs.runs(clock.now().getTime())).map((r) => r.executionId)).toEqual(['51']);
    await g.guard.tick();
    expect(g.stops).toEqual([]);
  });

  test('a set with neither keeps nothing', async () => {
    const clock = new TestClock(new Date(NOW));
    const g = guardUnderTest(bundleFrom(policy('environments: {blocked: [nowhere]}')), clock);
    g.allow(run(52));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await g.runs.runs(clock.now().getTime())).toEqual([]);
  });
});

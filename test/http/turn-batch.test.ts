import { turnBatch } from '../../src/http/turn-batch';

/** Enqueues `n` jobs that log when they run and when their continuation runs; resolves when all settled. */
function logged(inTurn: ReturnType<typeof turnBatch>, n: number, log: string[], from = 0) {
  return Promise.all(
    Array.from({ length: n }, (_, k) =>
      inTurn(() => {
        log.push(`job ${from + k}`);
        return from + k;
      }).then((value) => log.push(`then ${value}`)),
    ),
  );
}

describe('turnBatch', () => {
  test('jobs queued in one turn run back to back, before any continuation, in the order queued', async () => {
    const log: string[] = [];
    await logged(turnBatch(), 3, log);
    expect(log).toEqual(['job 0', 'job 1', 'job 2', 'then 0', 'then 1', 'then 2']);
  });

  test('nothing runs while the caller is still in its own turn', async () => {
    const log: string[] = [];
    const done = logged(turnBatch(), 1, log);
    await Promise.resolve();
    log.push('caller');
    await done;
    expect(log).toEqual(['caller', 'job 0', 'then 0']);
  });

  test('a turn ends when every pending microtask has run: a job queued after many awaits joins the batch', async () => {
    const inTurn = turnBatch();
    const log: string[] = [];
    const early = inTurn(() => log.push('job early')).then(() => log.push('then early'));
    const late = (async () => {
      for (let k = 0; k < 20; k++) await null;
      await inTurn(() => log.push('job late'));
      log.push('then late');
    })();
    await Promise.all([early, late]);
    expect(log).toEqual(['job early', 'job late', 'then early', 'then late']);
  });

  test('a job that throws rejects its own promise only; the batch goes on', async () => {
    const inTurn = turnBatch();
    const boom = new Error('boom');
    const settled = await Promise.allSettled([
      inTurn(() => 1),
      inTurn(() => {
        throw boom;
      }),
      inTurn(() => 3),
    ]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: boom },
      { status: 'fulfilled', value: 3 },
    ]);
  });

  test('at most maxPerTurn jobs a turn: the rest follow in later turns, in order, after the first batch is answered', async () => {
    const log: string[] = [];
    await logged(turnBatch(2), 5, log);
    expect(log).toEqual([
      'job 0',
      'job 1',
      'then 0',
      'then 1',
      'job 2',
      'job 3',
      'then 2',
      'then 3',
      'job 4',
      'then 4',
    ]);
  });

  test('jobs queued by a continuation, and in later turns, are run too', async () => {
    const inTurn = turnBatch();
    const log: string[] = [];
    await inTurn(() => log.push('first')).then(() => inTurn(() => log.push('from a continuation')));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await inTurn(() => log.push('a later turn'));
    expect(log).toEqual(['first', 'from a continuation', 'a later turn']);
  });

  test('a job queued behind a held-back remainder waits its turn', async () => {
    const inTurn = turnBatch(1);
    const log: string[] = [];
    const first = logged(inTurn, 2, log);
    const late = first.then(() => logged(inTurn, 1, log, 2));
    await late;
    expect(log).toEqual(['job 0', 'then 0', 'job 1', 'then 1', 'job 2', 'then 2']);
  });

  test.each([0, -1, 1.5, Number.NaN])('maxPerTurn %p is refused with a message', (max) => {
    expect(() => turnBatch(max)).toThrow(`maxPerTurn must be a positive integer, got ${max}`);
  });
});

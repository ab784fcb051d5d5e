import { freezeRecord, type AnswerRecord, type AnswerSubscriber } from '../../src/answer/answer-record';
import { publishAnswer } from '../../src/answer/publish-answer';
import { capturingLogger } from '../helpers/capturing-logger';
import { waitFor } from '../helpers/server-process';

const record = (): AnswerRecord =>
  freezeRecord({
    route: '/preflight',
    decisionId: 'd-1',
    status: 200,
    timings: { answeredAt: new Date('2026-01-05T10:00:00Z'), durationMs: 1.5 },
  });

/** A subscriber that notes its name in `calls`, then does `then`. */
const noting = (
  name: string,
  calls: string[],
  then: () => void | Promise<void> = () => undefined,
): AnswerSubscriber => ({
  name,
  onAnswer: () => {
    calls.push(name);
    return then();
  },
});

describe('publishAnswer: each subscriber told once, in order, none in the way of another', () => {
  it('calls the subscribers in the order given', () => {
    const calls: string[] = [];
    const publish = publishAnswer(
      ['audit', 'archive', 'notifications', 'guard'].map((n) => noting(n, calls)),
      capturingLogger().logger,
    );
    publish(record());
    expect(calls).toEqual(['audit', 'archive', 'notifications', 'guard']);
  });

  it('logs a subscriber that throws, naming it, and calls the next one all the same', () => {
    const calls: string[] = [];
    const { logger, lines } = capturingLogger();
    const publish = publishAnswer(
      [
        noting('the archive', calls, () => {
          throw new Error('disk full');
        }),
        noting('the guard', calls),
      ],
      logger,
    );
    expect(() => publish(record())).not.toThrow();
    expect(calls).toEqual(['the archive', 'the guard']);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'after an answer, the archive failed; the answer was sent as decided',
        decisionId: 'd-1',
        route: '/preflight',
        status: 200,
        error: 'disk full',
      }),
    ]);
  });

  it('neither waits for a slow subscriber nor lets its rejection escape', async () => {
    const calls: string[] = [];
    const { logger, lines } = capturingLogger();
    let reject: (err: Error) => void = () => undefined;
    const publish = publishAnswer(
      [
        noting('never done', calls, () => new Promise<void>(() => undefined)),
        noting('notifications', calls, () => new Promise<void>((_resolve, r) => (reject = r))),
        noting('the guard', calls),
      ],
      logger,
    );
    publish(record());
    // Synchronously, every subscriber was already called: no promise was awaited.
    expect(calls).toEqual(['never done', 'notifications', 'the guard']);
    reject(new Error('the target hangs up'));
    await waitFor(async () => lines.length > 0, 'the error line');
    expect(lines[0]).toMatchObject({
      message: expect.stringContaining('notifications failed'),
      error: 'the target hangs up',
    });
  });

  it('hands every subscriber the same frozen record: none can change what the next one reads', () => {
    const seen: AnswerRecord[] = [];
    const publish = publishAnswer(
      [
        {
          name: 'a meddler',
          onAnswer: (r) => {
            (r as { status: number }).status = 500;
          },
        },
        {
          name: 'a timing meddler',
          onAnswer: (r) => {
            (r.timings as { durationMs: number }).durationMs = 0;
          },
        },
        { name: 'a reader', onAnswer: (r) => void seen.push(r) },
      ],
      capturingLogger().logger,
    );
    const r = record();
    publish(r);
    expect(Object.isFrozen(r)).toBe(true);
    expect(seen).toEqual([r]);
    expect(seen[0]).toMatchObject({ status: 200, timings: { durationMs: 1.5 } });
  });
});

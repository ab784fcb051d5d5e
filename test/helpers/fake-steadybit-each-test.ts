import { startFakeSteadybit, type FakeSteadybit } from './fake-steadybit';

/**
 * A fresh fake Steadybit for each test of the file: started before it and handed to `use` (which
 * keeps it and may fill it), stopped after it, when every answer it gave must be one the platform
 * spec declares (`specProblems()` empty).
 */
export function fakeSteadybitEachTest(use: (fake: FakeSteadybit) => void): void {
  let fake: FakeSteadybit | undefined;
  beforeEach(async () => {
    fake = await startFakeSteadybit();
    use(fake);
  });
  afterEach(async () => {
    const started = fake;
    fake = undefined;
    if (started === undefined) return;
    try {
      expect(started.specProblems()).toEqual([]);
    } finally {
      await started.stop();
    }
  });
}

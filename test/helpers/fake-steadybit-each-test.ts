import { startFakeSteadybit, type FakeOptions, type FakeSteadybit } from './fake-steadybit';

/** Its every answer is one the platform spec declares (`specProblems()` empty); then it is stopped, even when not. */
async function checkAndStop(fake: FakeSteadybit): Promise<void> {
  try {
    expect(fake.specProblems()).toEqual([]);
  } finally {
    await fake.stop();
  }
}

/**
 * A fresh fake Steadybit for each test of the file: started before it and handed to `use` (which
 * keeps it and may fill it), checked against the platform spec and stopped after it. `restart`
 * replaces it within a test by one started with other options (checking and stopping the first).
 */
export function fakeSteadybitEachTest(use: (fake: FakeSteadybit) => void): {
  restart(opts: FakeOptions): Promise<void>;
} {
  let fake: FakeSteadybit | undefined;
  const start = async (opts?: FakeOptions) => {
    fake = await startFakeSteadybit(opts);
    use(fake);
  };
  beforeEach(() => start());
  afterEach(async () => {
    const started = fake;
    fake = undefined;
    if (started !== undefined) await checkAndStop(started);
  });
  return {
    async restart(opts) {
      if (fake !== undefined) await checkAndStop(fake);
      await start(opts);
    },
  };
}

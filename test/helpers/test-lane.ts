/**
 * `npm run test:unit` (jest.unit.config.js) is the fast lane: it sets PREFLIGHT_TEST_LANE=unit
 * (test/unit-lane-setting.js). There the checks over generated inputs (policy sets, property runs)
 * run at a smaller size, and the checks that decide over the 10,000-policy generated set (loading it
 * alone takes seconds) leave that set out. `npm test`, and so CI, runs every check at full size; every
 * assertion runs in both, only the sizes differ.
 */
export const inFastLane = (): boolean => process.env.PREFLIGHT_TEST_LANE === 'unit';

/** The generated set only `npm test` decides over. */
export const FULL_RUN_ONLY_SET = 10_000;

/**
 * The size of a generated input (policies in a set, runs of a property): `full` in `npm test`, `lane`
 * in the fast lane. Pick a lane size at which the check's own assertions still hold and still mean
 * something (a property still finds the case it is about); `npm test` keeps the full size.
 */
export const generatedSize = (full: number, lane: number): number => (inFastLane() ? lane : full);

/**
 * `npm run test:unit` (jest.unit.config.js) is the fast lane: it sets PREFLIGHT_TEST_LANE=unit
 * (test/unit-lane-setting.js), and the few checks that decide over the 10,000-policy generated set
 * (loading it alone takes seconds) leave that set out there. `npm test`, and so CI, runs every check
 * at full size; nothing else differs between the two.
 */
export const inFastLane = (): boolean => process.env.PREFLIGHT_TEST_LANE === 'unit';

/** The generated set only `npm test` decides over. */
export const FULL_RUN_ONLY_SET = 10_000;

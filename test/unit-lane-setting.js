// The fast lane (`npm run test:unit`, jest.unit.config.js): test/helpers/test-lane.ts reads this to
// size generated inputs for the lane and leave the 10,000-policy generated set to `npm test`.
process.env.PREFLIGHT_TEST_LANE = 'unit';

/**
 * `npm run test:unit`: the tests that start no server and no process (no HTTP listener, no Redis,
 * Prometheus, Alertmanager, helm, buildah or CLI child process), in well under a minute. `npm test`
 * runs them too, with everything else. test/unit-lane-guard.js makes a test of this lane that
 * starts a server or a process fail, saying so.
 */
const base = require('./jest.config.js');

/**
 * Start nothing, but left to `npm test`: property and generated-set checks of many seconds each,
 * not unit checks (measured: together about a third of the lane's CPU time). They run there
 * at full size, as every check does.
 */
const FULL_RUN_ONLY = [
  'architecture/import-cycles.test.ts', // the import graph of the whole of src/, through TypeScript's parser
  'policy/generated-policy-sets.test.ts', // loads generated sets of 1,000 policies
  'policy/index-property.test.ts', // random bundles and runs against the full scan
  'policy/time-window-wall-clock.test.ts', // runs of instants around DST switches and far dates
];

/**
 * Files and folders (ending in /) under test/ that start nothing. A new test file joins the lane
 * when listed here (or put in a listed folder); unlisted, it runs with `npm test` only.
 */
const UNIT = [
  'architecture/',
  'approvals/ask-for-exception.test.ts',
  'approvals/created-by-scope.test.ts',
  'archive/archive-config.test.ts',
  'archive/decision-archive.test.ts',
  'archive/rotating-file.test.ts',
  'bench/cpu-steal.test.ts',
  'bench/http-rounds.test.ts',
  'bench/large-run-stage.test.ts',
  'bench/targets.test.ts',
  'cli/coverage-arithmetic.test.ts',
  'cli/readme-workflow.test.ts',
  'cli/suite-logic.test.ts',
  'cli/suite-run-report.test.ts',
  'cli/validate-suites.test.ts',
  'cli/suite-schema-suggestions.test.ts',
  'helm/dockerfile.test.ts',
  'http/in-flight.test.ts',
  'http/turn-batch.test.ts',
  'notify/message-schemas.test.ts',
  'notify/notify-config.test.ts',
  'observability/policy-result-tally.test.ts',
  'observability/token-redactor.test.ts',
  'payload/parse-strict-json.test.ts',
  'payload/quote-bytes.test.ts',
  'payload/payload-fields.test.ts',
  'platform/environment-names-decide.test.ts',
  'platform/platform-config.test.ts',
  'playground/decide-playground.test.ts',
  'playground/schema-completion.test.ts',
  'policy/combine.test.ts',
  'policy/compile-simple-property.test.ts',
  'policy/condition-data-shared.test.ts',
  'policy/connect-probe.test.ts',
  'policy/decision-cases.test.ts',
  'policy/decisions-unchanged.test.ts',
  'policy/name-typo-families.test.ts',
  'policy/unknown-kind.test.ts',
  'policy/docs-examples.test.ts',
  'policy/documented-choices.test.ts',
  'policy/exception-reach.test.ts',
  'policy/glob-syntax.test.ts',
  'policy/glob.test.ts',
  'policy/ignored-policy-files.test.ts',
  'policy/hostile-documents.test.ts',
  'policy/indentation-hints.test.ts',
  'policy/index.test.ts',
  'policy/malformed-policies.test.ts',
  'policy/modes-and-exceptions.test.ts',
  'policy/outcomes.test.ts',
  'policy/policy-shape.test.ts',
  'policy/schema-error-messages.test.ts',
  'policy/scope.test.ts',
  'policy/shared-rule-checks.test.ts',
  'policy/starter-policies.test.ts',
  'policy/step-shapes.test.ts',
  'policy/suite-named-policy-stays.test.ts',
  'policy/time-window-property.test.ts',
  'policy/rules/actions.test.ts',
  'policy/rules/blast-radius.test.ts',
  'policy/rules/condition.test.ts',
  'policy/rules/attacked-services-doc.test.ts',
  'policy/rules/docs-examples.test.ts',
  'policy/rules/duration.test.ts',
  'policy/rules/environments.test.ts',
  'policy/rules/load-errors.test.ts',
  'policy/rules/parameters.test.ts',
  'policy/rules/per-group.test.ts',
  'policy/rules/predicate-property.test.ts',
  'policy/rules/target-attributes.test.ts',
  'policy/rules/targets.test.ts',
  'policy/rules/time-window.test.ts',
  'readme/config-table.test.ts',
  'readme/example-outcome-any-time.test.ts',
  'readme/readme-facts.test.ts',
  'readme/readme-policy.test.ts',
  'reload/misplaced-policies.test.ts',
  'reload/policy-reloader.test.ts',
  'reload/policy-sync.test.ts',
  'replay/archive-sources.test.ts',
  'replay/check-record.test.ts',
  'replay/damaged-archive.test.ts',
  'replay/text-lines.test.ts',
  'replay/format-markdown.test.ts',
  'replay/same-json.test.ts',
  'server/config.test.ts',
  'signals/api-schemas.test.ts',
  'signals/calendar-events.test.ts',
  'signals/deny-when-and-query.test.ts',
  'signals/environment-placeholder.test.ts',
  'signals/matcher.test.ts',
  'signals/replay-coverage.test.ts',
  'signals/signal-checks.test.ts',
  'signals/signal-facts.test.ts',
  'signals/signal-rules-load.test.ts',
  'signals/signals-config.test.ts',
  'signals/target-placeholders.test.ts',
  'signature/verify-signature.test.ts',
  'state/docs-examples.test.ts',
  'state/event-time.test.ts',
  'state/event-tolerance.test.ts',
  'state/redis-config.test.ts',
  'state/state-rules.test.ts',
];

module.exports = {
  ...base,
  // Every core: Jest's default leaves one to itself, which on a 2-core machine runs the lane one file at a time.
  maxWorkers: '100%',
  testMatch: UNIT.map((p) => (p.endsWith('/') ? `<rootDir>/test/${p}**/*.test.ts` : `<rootDir>/test/${p}`)),
  // Also when a listed folder holds them.
  testPathIgnorePatterns: ['/node_modules/', ...FULL_RUN_ONLY.map((p) => `/test/${p.replace(/\./g, '\\.')}$`)],
  // unit-lane-setting: generated inputs at the lane's size, the 10,000-policy set in `npm test` only (test/helpers/test-lane.ts).
  setupFiles: [...(base.setupFiles ?? []), '<rootDir>/test/unit-lane-guard.js', '<rootDir>/test/unit-lane-setting.js'],
};

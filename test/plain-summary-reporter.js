/**
 * Prints one plain closing line after jest's own summary, e.g. `tests: 963 passed, 0 failed`,
 * so tools that read a run's last line (CI) see the counts in a runner-neutral form.
 */
class PlainSummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numRuntimeErrorTestSuites;
    const failed = results.numFailedTests + failedSuites;
    process.stderr.write(
      `tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = PlainSummaryReporter;

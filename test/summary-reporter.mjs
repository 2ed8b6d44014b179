// Prints one plain closing line, "tests: N passed, N failed", after Jest's own summary.
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped ? `, ${skipped} skipped` : '';
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`);
  }
}

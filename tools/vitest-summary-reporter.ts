import type { Reporter, SerializedError, TestModule, Vitest } from "vitest/node";

// CI reads the run's closing line: "N passed, N failed" (then ", N skipped" if any).
// Tests are counted, not files. A file that failed outside any test (an import error, a
// failing beforeAll with no test to blame) and each unhandled error count as one failure,
// so a broken run can never end on "0 failed".
export class SummaryReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const { state } = test.result();
        if (state === "passed") passed++;
        else if (state === "failed") failedTests++;
        else skipped++; // "skipped", or "pending" when the run was cut short
      }
      failed += failedTests;
      if (failedTests === 0 && testModule.state() === "failed") failed++;
    }
    const line = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
    if (this.vitest) this.vitest.logger.log(`\n${line}`);
    else process.stdout.write(`\n${line}\n`);
  }
}

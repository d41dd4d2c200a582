import { relative } from "node:path";
import type { Reporter, SerializedError, TestModule, Vitest } from "vitest/node";

/** How many of the slowest test files the summary names. */
const SLOWEST = 15;

// CI reads the run's closing line: "N passed, N failed" (then ", N skipped" if any).
// Tests are counted, not files. A file that failed outside any test (an import error, a
// failing beforeAll with no test to blame) and each unhandled error count as one failure,
// so a broken run can never end on "0 failed".
// Above it, the 15 slowest files, each with the time its worker spent on it (setting up, importing,
// its hooks and tests): where a shorter run has to start.
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
    const text = `${slowestFiles(testModules, this.vitest?.config.root ?? process.cwd())}\n${line}`;
    if (this.vitest) this.vitest.logger.log(`\n${text}`);
    else process.stdout.write(`\n${text}\n`);
  }
}

/** The slowest files, one a line ("  41.2 s  apps/registry/test/tree-index.test.ts"), under a heading. */
export function slowestFiles(testModules: ReadonlyArray<TestModule>, root: string): string {
  const timed = testModules.map((testModule) => {
    const d = testModule.diagnostic();
    const ms =
      d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
    return { ms, file: relative(root, testModule.moduleId) };
  });
  const slowest = timed.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
  const lines = slowest.map(({ ms, file }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
  return [`${slowest.length} slowest test files:`, ...lines].join("\n");
}

import { describe, expect, it } from "vitest";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

// The test provider (packages/testkit/src/provider/test-provider.ts) is steered by the
// "test.provider" config map: delayMs, failTimes (retriable), failPermanently.
describe("--wait", () => {
  const registry = useRegistryProcess("pglite");
  const cluster = 'DECLARE CLUSTER "wait_c" WITH PROVIDER "test";';

  it("waits through retries until the binding is ONLINE, with progress on stderr", async () => {
    const run = await runMain([
      "--registry",
      registry().url,
      "--wait",
      "-e",
      `${cluster}
       CREATE STREAM "wait_flaky" WITH CONFIG { "test.provider": { "delayMs": 300, "failTimes": 1 } };
       CREATE BINDING "wait_flaky" TO CLUSTER "wait_c";`,
    ]);
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toBe(
      "cluster wait_c (test): created\nstream wait_flaky: created\nbinding wait_flaky on wait_c: ONLINE\n",
    );
    expect(run.stderr).toMatch(/^waiting for binding wait_flaky on wait_c: PENDING/m);
  });

  it("ends with the wait-failed code when the binding becomes FAILED", async () => {
    const run = await runMain([
      "--registry",
      registry().url,
      "--wait",
      "-e",
      `${cluster}
       CREATE STREAM "wait_bad" WITH CONFIG { "test.provider": { "failPermanently": true } };
       CREATE BINDING "wait_bad" TO CLUSTER "wait_c";
       CREATE STREAM "wait_not_reached";`,
    ]);
    expect(run.code).toBe(ExitCode.WAIT_FAILED);
    expect(run.stderr).toContain(
      'CREATE BINDING "wait_bad" TO CLUSTER "wait_c";\n  error: binding wait_bad on wait_c: FAILED (refused for good (failPermanently))',
    );
    expect(run.stdout).not.toContain("wait_not_reached");
  });

  it("gives up after --timeout", async () => {
    const srctl = createSrctl({ registry: registry().url, token: TEST_ADMIN_TOKEN });
    const progress: string[] = [];
    const started = Date.now();
    const report = await srctl.run(
      `${cluster}
       CREATE STREAM "wait_slow" WITH CONFIG { "test.provider": { "delayMs": 5000 } };
       CREATE BINDING "wait_slow" TO CLUSTER "wait_c";`,
      { wait: { timeoutMs: 800, progress: (line) => progress.push(line) } },
    );
    expect(Date.now() - started).toBeLessThan(4000);
    expect(report.exitCode).toBe(ExitCode.WAIT_FAILED);
    expect(report.results.at(-1)?.error?.message).toBe(
      "timed out after 0.8s waiting for binding wait_slow on wait_c (last seen: PENDING)",
    );
    expect(progress[0]).toMatch(/^waiting for binding wait_slow on wait_c: PENDING/);
  });
});

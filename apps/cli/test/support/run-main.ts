import { Readable } from "node:stream";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { main } from "../../src/main.ts";
import type { SrctlRun } from "./run-srctl.ts";

/**
 * Runs srctl's main() in this process with captured output: the same code path as the binary
 * minus the process start (~1 s of tsx compiling), for tests that are about behaviour, not the bin.
 */
export async function runMain(
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<SrctlRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([options.input ?? ""]),
    // The testkit's registries' admin token, as a user sets SRCTL_TOKEN ("" to go without).
    env: { SRCTL_HISTORY: "", SRCTL_TOKEN: TEST_ADMIN_TOKEN, ...options.env },
  });
  return { code, stdout, stderr };
}

import { Readable } from "node:stream";
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
    env: { SRCTL_HISTORY: "", ...options.env },
  });
  return { code, stdout, stderr };
}

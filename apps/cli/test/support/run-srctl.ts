import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";

export const srctlBin = fileURLToPath(new URL("../../bin/srctl.js", import.meta.url));

export interface SrctlRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunSrctlOptions {
  /** Written to stdin, which is then closed. */
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * Runs the real `bin/srctl.js` as its own process. Asynchronous on purpose: the registry under test
 * may live in this process, and a blocking spawn would stall it.
 */
export function runSrctl(args: string[], options: RunSrctlOptions = {}): Promise<SrctlRun> {
  const child = spawn(process.execPath, [srctlBin, ...args], {
    cwd: options.cwd,
    // No history file of the user's is read or written by tests.
    // The testkit's registries' admin token, as a user sets SRCTL_TOKEN ("" to go without).
    env: {
      ...process.env,
      SRCTL_HISTORY: "",
      SRCTL_REGISTRY: "",
      SRCTL_NAMESPACE: "",
      SRCTL_TOKEN: TEST_ADMIN_TOKEN,
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

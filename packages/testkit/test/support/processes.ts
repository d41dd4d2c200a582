import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Whether `pid` is a process that has not exited (an exited one nobody reaped yet is not). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Whether any process of the group `pgid` (a watchdog and its JVM) is still there. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running registry processes that `owner` started (their REGISTRY_TEST_OWNER_PID). */
export function registriesOf(owner: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return (
          environ.includes(`REGISTRY_TEST_OWNER_PID=${owner}`) &&
          cmdline.includes("apps/registry/src/main.ts")
        );
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .filter(running);
}

/**
 * Runs `fixture` (a script that starts something, reports it in one line on stdout, then waits to
 * be killed) as a test-like parent; resolves with the process and that line, parsed as JSON.
 */
export async function startOwner<T>(
  fixture: string,
  args: string[] = [],
): Promise<{ owner: ReturnType<typeof spawn>; reported: T }> {
  const owner = spawn(process.execPath, ["--import", "tsx", fixture, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    owner.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
    });
    owner.on("exit", (code) => reject(new Error(`${fixture} exited with ${code} before reporting`)));
  });
  return { owner, reported: JSON.parse(line) as T };
}

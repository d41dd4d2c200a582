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

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { eventually } from "../src/registry/eventually.ts";
import { running, startOwner } from "./support/processes.ts";

// A registry a test starts must not outlive the test process, however that process ends: here it
// is killed with SIGKILL, which it cannot handle, leaving its registry an orphan.
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

it.each(["node", "npm start"])(
  "stops a registry started with %s when the test process that started it is killed",
  async (launcher) => {
    const fixture = join(import.meta.dirname, "fixtures", "start-registry-and-wait.ts");
    const { owner, reported } = await startOwner<{ registryPid: number; dataDir: string }>(fixture, [
      launcher,
    ]);
    const { registryPid, dataDir } = reported;
    made.push(dataDir);
    expect(running(registryPid)).toBe(true);
    owner.kill("SIGKILL");
    await eventually(async () => !running(registryPid) || undefined, 30_000, "the orphaned registry to exit");
  },
  180_000,
);

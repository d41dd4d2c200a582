import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { eventually } from "../src/registry/eventually.ts";
import { running } from "./support/processes.ts";

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
    const owner = spawn(process.execPath, ["--import", "tsx", fixture, launcher], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      owner.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0] ?? "");
      });
      owner.on("exit", (code) => reject(new Error(`fixture exited with ${code} before starting a registry`)));
    });
    const { registryPid, dataDir } = JSON.parse(line) as { registryPid: number; dataDir: string };
    made.push(dataDir);
    expect(running(registryPid)).toBe(true);
    owner.kill("SIGKILL");
    await eventually(async () => !running(registryPid) || undefined, 30_000, "the orphaned registry to exit");
  },
  180_000,
);

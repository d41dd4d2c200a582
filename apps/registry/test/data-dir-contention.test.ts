import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  migratedDataDir,
  TEST_ADMIN_TOKEN,
  postGraphQL,
  CREATE_STREAM,
  launchRegistry,
  spawnRegistry,
} from "@stream-registry/testkit";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
/** What a registry refused the data directory says, alone on its line. */
const IN_USE =
  /^stream-registry: data directory \S+ is in use by process \d+; give each registry its own REGISTRY_DATA_DIR, or use DATABASE_URL to share a PostgreSQL database$/;
const ROUNDS = 3;
const PROCESSES = 4;
const env = (dataDir: string) => ({
  REGISTRY_DATA_DIR: dataDir,
  REGISTRY_HEALTH_INTERVAL_MS: "0",
  RECONCILER_RESYNC_MS: "0",
});

describe("registries started together on one PGlite data directory with a crashed owner's lock", () => {
  const processes: { kill(signal: NodeJS.Signals): void; exited: Promise<unknown> }[] = [];
  let dataDir: string;

  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill("SIGKILL");
      await p.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("let exactly one run each time, and lose no acknowledged write", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sr-contention-"));
    await writeFile(path.join(dataDir, "registry.lock"), "2147483646"); // no such process
    const acknowledged: string[] = [];
    const runningPerRound: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const launched = Array.from({ length: PROCESSES }, () => launchRegistry(env(dataDir)));
      processes.push(...launched);
      const urls = await Promise.all(launched.map((p) => p.started));
      runningPerRound.push(urls.filter(Boolean).length);
      // Every process that got to run is asked for a write, as clients of several would be.
      for (const [i, url] of urls.entries()) {
        if (!url) continue;
        const name = `round${round}_process${i}`;
        const { data } = await postGraphQL(url, CREATE_STREAM, { input: { name } });
        if ((data as { createStream?: { stream?: unknown } })?.createStream?.stream) acknowledged.push(name);
      }
      for (const [i, p] of launched.entries()) {
        if (urls[i]) continue;
        expect(await p.exited).toBe(1);
        // Its only output besides debug log lines: no "registry failed to start" with a stack.
        expect(p.logs.filter((line) => !line.includes('"level":20'))).toEqual([
          expect.stringMatching(IN_USE),
        ]);
      }
      // Whoever runs crashes: its lock is what the next round's processes find.
      for (const p of launched) p.kill("SIGKILL");
      await Promise.all(launched.map((p) => p.exited));
    }
    const after = await spawnRegistry(env(dataDir));
    processes.push(after);
    const { data } = await postGraphQL<{ streams: { nodes: { name: string }[] } }>(
      after.url,
      "query { streams(first: 100) { nodes { name } } }",
    );
    expect(data?.streams.nodes.map((n) => n.name).sort()).toEqual(acknowledged.sort());
    expect(runningPerRound).toEqual(Array(ROUNDS).fill(1));
  }, 240_000);
});

describe("a second npm start on the data directory of a running registry", () => {
  it("says so in one plain line on stderr, without a stack trace, and exits non-zero", async () => {
    const dataDir = await migratedDataDir("contention");
    const running = await spawnRegistry(env(dataDir));
    try {
      const second = await npmStart({ ...env(dataDir), PORT: "0", HOST: "127.0.0.1" });
      expect(second.code).not.toBe(0);
      expect(second.stdout).not.toContain("{");
      // npm adds its own lines about the script that failed; the registry's own is one line.
      const own = second.stderr.split("\n").filter((line) => line.startsWith("stream-registry:"));
      expect(own).toEqual([expect.stringMatching(IN_USE)]);
      expect(own[0]).toContain(`by process ${running.registryPid};`);
      expect(second.stderr).not.toMatch(/^\s+at /m);
    } finally {
      running.kill("SIGKILL");
      await running.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

/** `npm start` in the repository root, as a user runs it, with stdout and stderr apart. */
function npmStart(environment: Record<string, string>) {
  const child = spawn("npm", ["start"], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: "production", REGISTRY_ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...environment },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stdout, stderr })),
  );
}

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { postGraphQL } from "./support/graphql-client.ts";
import { CREATE_STREAM } from "./support/operations.ts";
import { launchRegistry, spawnRegistry, type LaunchedRegistry } from "./support/registry-process.ts";

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
        expect(errorOf(p)).toMatchObject({ type: "DataDirInUseError" });
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

function errorOf(p: LaunchedRegistry): unknown {
  return p.entries().find((e) => e.msg === "registry failed to start")?.err;
}

/**
 * npm run bench:start [-- --runs 5]
 *
 * How long `npm start` takes to answer: spawns it in the repository root (NODE_ENV=production, a
 * PGlite data directory) on a new data directory, then again on that one (a restart), `--runs`
 * times each, and times from the spawn to the first 200 of `{ __typename }` on /graphql with the
 * admin token (polled every 20 ms): a real GraphQL answer, which /healthz gives no earlier.
 * Where the time goes, from the registry's own log: node and the registry's build loaded
 * (`loadedMs`; `npm start` runs the registry bundled by esbuild, apps/registry/bin/build.mjs), the database opened (`openMs`: PGlite, from the install-time template or initdb
 * on a new directory) and migrated (`migrateMs`), and the process's own start (`startedMs`); the
 * rest is npm's. The build is made current first, as `npm install` leaves it. Then, in the same
 * run, the pieces alone: node, node with tsx (what loaded the sources before), the build from
 * scratch, PGlite on a new directory from the template and by initdb. Prints medians and the load average, which on a shared machine
 * is most of the story. A benchmark, not a test: it asserts nothing about speed.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { freePort, TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { fillFromTemplate } from "../../../packages/store/src/pglite-template.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "5" }, sources: { type: "boolean", default: false } },
});
// --sources: what `npm start` ran before its build (issue 20), without npm, to compare in one sitting.
const [command, args] = values.sources
  ? [process.execPath, ["--import", "tsx", "apps/registry/src/main.ts"]]
  : ["npm", ["start"]];
const runs = Number(values.runs);
const repoRoot = path.resolve(import.meta.dirname, "../../..");

interface Start {
  /** Spawn of `npm start` to the first 200 of `{ __typename }`. */
  answerMs: number;
  loadedMs: number;
  openMs: number;
  migrateMs: number;
  startedMs: number;
}

/** One `npm start` on `dataDir`, timed to its first answer, then stopped. */
async function timeStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "debug",
      PORT: String(port),
      REGISTRY_DATA_DIR: dataDir,
      REGISTRY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const entries: Record<string, unknown>[] = [];
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    const lines = (buffered + chunk.toString()).split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) entries.push(JSON.parse(line) as never);
  });
  let gone = false;
  const exited = new Promise((resolve) => child.once("exit", resolve)).finally(() => (gone = true));
  let answerMs: number | undefined;
  while (answerMs === undefined) {
    if (gone) throw new Error(`${command} exited before it answered`);
    const ok = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      body: JSON.stringify({ query: "{ __typename }" }),
    }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) answerMs = performance.now() - spawnedAt;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGTERM");
  await exited;
  const field = (msg: string, name: string) =>
    Number(entries.find((entry) => entry.msg === msg)?.[name] ?? Number.NaN);
  return {
    answerMs,
    loadedMs: field("modules loaded", "loadedMs"),
    openMs: field("database ready", "openMs"),
    migrateMs: field("database ready", "migrateMs"),
    startedMs: field("registry started", "startedMs"),
  };
}

/** Milliseconds a command takes from spawn to exit. */
async function timeCommand(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: repoRoot, stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return performance.now() - started;
}

/** PGlite opening a new directory: filled from the template, or by initdb. */
async function timeOpen(fromTemplate: boolean): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "sr-bench-open-"));
  try {
    const started = performance.now();
    if (fromTemplate && !(await fillFromTemplate(dataDir))) return Number.NaN;
    const pglite = await PGlite.create({ dataDir });
    const elapsed = performance.now() - started;
    await pglite.close();
    return elapsed;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

// As `npm install` leaves it: the runs time starts, not a build after a source changed.
const builder = path.join(repoRoot, "apps/registry/bin/build.mjs");
const entry = path.join(repoRoot, "apps/registry/src/main.ts");
await timeCommand(process.execPath, [
  "--input-type=module",
  "-e",
  `import { build, currentBuild } from ${JSON.stringify(builder)}; ` +
    `if (!currentBuild(${JSON.stringify(entry)})) await build(${JSON.stringify(entry)});`,
]);

console.log(`load average (1, 5, 15 min) before: ${load()}; ${runs} runs of ${[command, ...args].join(" ")}`);
const fresh: Start[] = [];
const again: Start[] = [];
const pieces = {
  node: [] as number[],
  tsx: [] as number[],
  build: [] as number[],
  template: [] as number[],
  initdb: [] as number[],
};
for (let run = 1; run <= runs; run++) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "sr-bench-start-"));
  try {
    fresh.push(await timeStart(dataDir));
    again.push(await timeStart(dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  pieces.node.push(await timeCommand(process.execPath, ["-e", ""]));
  pieces.tsx.push(await timeCommand(process.execPath, ["--import", "tsx", "-e", ""]));
  pieces.build.push(await timeCommand(process.execPath, [builder, entry]));
  pieces.template.push(await timeOpen(true));
  pieces.initdb.push(await timeOpen(false));
  console.log(
    `run ${run}: new directory ${fresh.at(-1)!.answerMs.toFixed(0)} ms, restart ` +
      `${again.at(-1)!.answerMs.toFixed(0)} ms; load ${load()}`,
  );
}

const row = (label: string, starts: Start[]) => {
  const m = (key: keyof Start) => median(starts.map((start) => start[key])).toFixed(0);
  const npm = median(starts.map((start) => start.answerMs - start.startedMs)).toFixed(0);
  return `| ${label} | ${m("answerMs")} | ${m("loadedMs")} | ${m("openMs")} | ${m("migrateMs")} | ${m("startedMs")} | ${npm} |`;
};
console.log(`\nmedians of ${runs} runs, ms; load average after: ${load()}`);
console.log(
  "| npm start on | first 200 | modules loaded | database opened | migrated | started | npm and the rest |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
console.log(row("a new data directory", fresh));
console.log(row("the same again (restart)", again));
console.log("\npieces alone, medians, ms:");
console.log(`  node -e '':                    ${median(pieces.node).toFixed(0)}`);
console.log(`  node --import tsx -e '':       ${median(pieces.tsx).toFixed(0)}`);
console.log(`  the build, from scratch:       ${median(pieces.build).toFixed(0)}`);
console.log(`  PGlite, new dir from template: ${median(pieces.template).toFixed(0)}`);
console.log(`  PGlite, new dir by initdb:     ${median(pieces.initdb).toFixed(0)}`);

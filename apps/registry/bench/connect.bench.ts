/**
 * npm run bench:connect [-- --records 200000 --runs 3 --paths direct,registry]
 *
 * Stream sources and sinks (issue 22, Must 8): a real broker and a real Connect worker (the
 * testkit's), a registry process (production mode, PGlite, the defaults users get) whose Kafka
 * cluster names that worker, and for each path (connect-paths.ts: connectors created directly on
 * Connect, the floor, and CREATE STREAM SOURCE / SINK through the registry's GraphQL):
 * - create → RUNNING: time from the create request for a file source to the connector and its task
 *   RUNNING (through the registry: the source shown ONLINE), median of `runs`;
 * - records/s: a file source feeds a topic and a file sink drains it to a file; once both run,
 *   `records` lines are appended to the source's file at once and the clock runs until the last of
 *   them is in the sink's file (every line checked, in order); median of `runs`.
 * The registry is not in the data path, so a registry column should show about the same records/s.
 * A benchmark, not a test: it asserts nothing about speed.
 */
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import {
  CONNECT_VERSION,
  mutate,
  registryClient,
  spawnRegistry,
  fileSinkConfig,
  fileSourceConfig,
  kafkaClient,
  startConnectWorker,
  startKafkaCluster,
} from "@stream-registry/testkit";
import { directPath, registryPath } from "./connect-paths.ts";
import type { ConnectorPath } from "./connect-paths.ts";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "200000" },
    runs: { type: "string", default: "3" },
    paths: { type: "string", default: "direct,registry" },
  },
});
const records = Number(values.records);
const runs = Number(values.runs);

const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/** Waits until `file` holds `bytes` bytes (the sink writes whole lines), polled every 20 ms. */
async function waitForBytes(file: string, bytes: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await stat(file).catch(() => undefined))?.size !== bytes) {
    if (Date.now() > deadline) throw new Error(`${file} did not reach ${bytes} bytes in ${timeoutMs} ms`);
    await sleep(20);
  }
}

let stopRegistry: (() => Promise<void>) | undefined;

/** A registry process as users run it (production, PGlite, default settings) with a cluster on the worker. */
async function startedRegistryPath(connectUrl: string, bootstrapServers: string): Promise<ConnectorPath> {
  const dataDir = path.join(dir, "registry-data");
  const registry = await spawnRegistry({
    REGISTRY_DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    NODE_ENV: "production",
  });
  stopRegistry = async () => {
    registry.kill("SIGTERM");
    await registry.exited;
  };
  const client = registryClient(registry.url);
  await mutate(
    client,
    `mutation($input: DeclareClusterInput!) { declareCluster(input: $input) { userErrors { code field message } } }`,
    {
      input: {
        name: "bench-connect",
        provider: "kafka",
        config: {
          "apache.kafka": { "bootstrap.servers": bootstrapServers },
          "kafka.connect": { url: connectUrl },
        },
      },
    },
  );
  return registryPath(client, "bench-connect");
}

const started = performance.now();
const kafka = await startKafkaCluster({ name: "bench-connect" });
const dir = await mkdtemp(path.join(tmpdir(), "sr-bench-connect-"));
try {
  await using worker = await startConnectWorker({
    name: "bench-connect",
    bootstrapServers: kafka.bootstrapServers,
  });
  console.log(
    `broker and Connect ${CONNECT_VERSION} worker up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const admin = kafkaClient(kafka.bootstrapServers).admin();
  await admin.connect();
  const paths: ConnectorPath[] = [];
  for (const name of values.paths.split(",")) {
    if (name === "direct") paths.push(directPath(worker, admin));
    else if (name === "registry") paths.push(await startedRegistryPath(worker.url, kafka.bootstrapServers));
    else throw new Error(`--paths: "direct" or "registry", comma-separated; got "${name}"`);
  }
  const lines = Array.from({ length: records }, (_, i) => `record ${i + 1} ${"x".repeat(64)}`);
  const payload = `${lines.join("\n")}\n`;
  const results = paths.map((connectors) => ({
    label: connectors.label,
    runningMs: [] as number[],
    recordsPerSecond: [] as number[],
  }));
  try {
    // Runs alternate between the paths, so that neither gets the worker's first connector every time.
    for (let run = 1; run <= runs; run += 1) {
      for (const [index, connectors] of paths.entries()) {
        const result = results[index]!;
        const id = `${index + 1}-${run}-${Date.now().toString(36)}`;
        const topic = `bench-connect-${id}`;
        const [input, output] = [path.join(dir, `in-${id}.txt`), path.join(dir, `out-${id}.txt`)];
        await writeFile(input, "");
        await connectors.createTopic(topic);
        const [source, sink] = [`bench-file-source-${id}`, `bench-file-sink-${id}`];
        const createdAt = performance.now();
        await connectors.create(source, fileSourceConfig({ file: input, topic }));
        await connectors.waitRunning(source);
        result.runningMs.push(performance.now() - createdAt);
        await connectors.create(sink, fileSinkConfig({ file: output, topic }));
        await connectors.waitRunning(sink);

        const flowing = performance.now();
        await appendFile(input, payload);
        await waitForBytes(output, Buffer.byteLength(payload), 600_000);
        const seconds = (performance.now() - flowing) / 1000;
        result.recordsPerSecond.push(records / seconds);
        if ((await readFile(output, "utf8")) !== payload)
          throw new Error(`run ${run}: the sink's file is not the source's`);
        console.log(
          `${connectors.label}, run ${run}: create → RUNNING ${result.runningMs.at(-1)?.toFixed(0)} ms; ${records} records in ${seconds.toFixed(2)} s (${(records / seconds).toFixed(0)} records/s)`,
        );
        await connectors.remove(source);
        await connectors.remove(sink);
        await connectors.deleteTopic(topic);
      }
    }
  } finally {
    await admin.disconnect();
    await stopRegistry?.();
  }
  console.log(
    `\nmedians of ${runs} runs, ${records} records of ${Buffer.byteLength(lines[0] ?? "") + 1} bytes each:`,
  );
  console.log("| path | create → RUNNING (ms) | file → topic → file (records/s) |");
  console.log("| --- | --- | --- |");
  for (const result of results) {
    console.log(
      `| ${result.label} | ${median(result.runningMs).toFixed(0)} | ${median(result.recordsPerSecond).toFixed(0)} |`,
    );
  }
  const [floor, registry] = results;
  if (floor && registry) {
    const ratio = (of: (result: (typeof results)[number]) => number[]) =>
      (median(of(registry)) / median(of(floor))).toFixed(2);
    console.log(
      `\n${registry.label} / ${floor.label}: create → RUNNING ×${ratio((r) => r.runningMs)}, records/s ×${ratio((r) => r.recordsPerSecond)}`,
    );
  }
} finally {
  await kafka[Symbol.asyncDispose]();
  await rm(dir, { recursive: true, force: true });
}

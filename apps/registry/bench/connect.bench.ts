/**
 * npm run bench:connect [-- --records 200000 --runs 3]
 *
 * The floor for stream sources and sinks (issue 22, Must 8): a real broker and a real Connect worker
 * (the testkit's), and for each path in `paths` (connect-paths.ts; today connectors created directly
 * on Connect):
 * - create → RUNNING: time from the create request for a file source to the connector and its task
 *   RUNNING, median of `runs`;
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
  fileSinkConfig,
  fileSourceConfig,
  kafkaClient,
  startConnectWorker,
  startKafkaCluster,
} from "@stream-registry/testkit";
import { directPath } from "./connect-paths.ts";
import type { ConnectorPath } from "./connect-paths.ts";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "200000" },
    runs: { type: "string", default: "3" },
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
  const paths: ConnectorPath[] = [directPath(worker)];
  const lines = Array.from({ length: records }, (_, i) => `record ${i + 1} ${"x".repeat(64)}`);
  const payload = `${lines.join("\n")}\n`;
  const results: { label: string; runningMs: number[]; recordsPerSecond: number[] }[] = [];
  try {
    for (const connectors of paths) {
      const result = { label: connectors.label, runningMs: [] as number[], recordsPerSecond: [] as number[] };
      results.push(result);
      for (let run = 1; run <= runs; run += 1) {
        const id = `${results.length}-${run}-${Date.now().toString(36)}`;
        const topic = `bench-connect-${id}`;
        const [input, output] = [path.join(dir, `in-${id}.txt`), path.join(dir, `out-${id}.txt`)];
        await writeFile(input, "");
        // The topic exists before the sink subscribes, so the sink sees it at once.
        await admin.createTopics({
          topics: [{ topic, numPartitions: 1, replicationFactor: 1 }],
          waitForLeaders: true,
        });
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
        await admin.deleteTopics({ topics: [topic] });
      }
    }
  } finally {
    await admin.disconnect();
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
} finally {
  await kafka[Symbol.asyncDispose]();
  await rm(dir, { recursive: true, force: true });
}

/**
 * npm run bench:kafka [-- --bindings 500 --concurrency 8 --partitions 3 --database pglite|postgres]
 *
 * Starts a real Kafka broker (the testkit's, single-node KRaft) and a registry as its own process,
 * declares the broker as a "kafka" cluster, then creates N streams with one binding each through the
 * GraphQL API and waits until every binding is ONLINE. Checks with kafkajs that the N topics exist
 * with the asked partitions, and prints the time until all were ONLINE, topics/s, and percentiles of
 * each binding's create→ONLINE latency (the registry's own timestamps: binding createdAt to its
 * status updatedAt). Then creates as many topics again straight through kafkajs on the same broker,
 * with the same concurrency, as the floor the registry is measured against, and then once more in
 * one batched CreateTopics request (the floor for batched realization). A benchmark, not a
 * test: it asserts nothing about speed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  createTestDatabase,
  databaseEnv,
  kafkaClient,
  startKafkaCluster,
  postGraphQL,
  spawnRegistry,
} from "@stream-registry/testkit";

const { values } = parseArgs({
  options: {
    bindings: { type: "string", default: "500" },
    concurrency: { type: "string", default: "8" },
    partitions: { type: "string", default: "3" },
    database: { type: "string", default: "pglite" },
  },
});
const count = Number(values.bindings);
const concurrency = Number(values.concurrency);
const partitions = Number(values.partitions);
const kind = values.database === "postgres" ? "postgres" : "pglite";
const CLUSTER = "bench-kafka";

interface BindingNode {
  stream: { name: string };
  createdAt: string;
  status: { phase: string; updatedAt: string; message: string | null };
}

type Admin = ReturnType<ReturnType<typeof kafkaClient>["admin"]>;

async function waitForLeaders(admin: Admin, topic: string): Promise<void> {
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      if (topics[0]?.partitions.every((partition) => partition.leader >= 0)) return;
    } catch (error) {
      if ((error as { type?: string }).type !== "UNKNOWN_TOPIC_OR_PARTITION") throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const brokerStarted = performance.now();
const kafka = await startKafkaCluster({ name: "bench" });
const brokerSeconds = (performance.now() - brokerStarted) / 1000;
const database = await createTestDatabase(kind, "bench_kafka");
const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-bench-kafka-")) : undefined;
const registry = await spawnRegistry({
  ...databaseEnv(database.url, dataDir),
  LOG_LEVEL: "info",
  NODE_ENV: "production",
  // No periodic resync during the run: it would move ONLINE bindings' status.updatedAt.
  RECONCILER_RESYNC_MS: "0",
});

async function call<T = Record<string, unknown>>(
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await postGraphQL<T>(registry.url, query, variables);
  if (response.errors?.length) throw new Error(JSON.stringify(response.errors));
  const data = response.data as Record<string, { userErrors?: unknown[] }>;
  for (const payload of Object.values(data)) {
    if (payload?.userErrors?.length) throw new Error(JSON.stringify(payload.userErrors));
  }
  return response.data as T;
}

async function allBindings(): Promise<BindingNode[]> {
  const nodes: BindingNode[] = [];
  let after: string | null = null;
  do {
    const page: {
      bindings: { nodes: BindingNode[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
    } = await call(
      `query($after: String, $cluster: String) { bindings(filter: { cluster: $cluster }, first: 100, after: $after) {
        pageInfo { hasNextPage endCursor } nodes { stream { name } createdAt status { phase updatedAt message } } } }`,
      { after, cluster: CLUSTER },
    );
    nodes.push(...page.bindings.nodes);
    after = page.bindings.pageInfo.hasNextPage ? page.bindings.pageInfo.endCursor : null;
  } while (after);
  return nodes;
}

try {
  await call(
    `mutation($input: DeclareClusterInput!) { declareCluster(input: $input) { userErrors { message } } }`,
    {
      input: {
        name: CLUSTER,
        provider: "kafka",
        config: { "apache.kafka": { "bootstrap.servers": kafka.bootstrapServers } },
      },
    },
  );
  const names = Array.from({ length: count }, (_, i) => `bench_${String(i).padStart(5, "0")}`);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const name = names[i]!;
        await call(
          `mutation($i: CreateStreamInput!) { createStream(input: $i) { userErrors { message } } }`,
          {
            i: { name, config: { "apache.kafka": { partitions, replication: 1 } } },
          },
        );
        await call(
          `mutation($i: CreateBindingInput!) { createBinding(input: $i) { userErrors { message } } }`,
          {
            i: { stream: name, cluster: CLUSTER },
          },
        );
      }
    }),
  );
  const createSeconds = (performance.now() - started) / 1000;
  const online = async () =>
    (
      await call<{ bindings: { totalCount: number } }>(
        `query($cluster: String) { bindings(filter: { cluster: $cluster, phase: ONLINE }) { totalCount } }`,
        { cluster: CLUSTER },
      )
    ).bindings.totalCount;
  const deadline = Date.now() + 15 * 60_000;
  while ((await online()) < count) {
    if (Date.now() > deadline) throw new Error("not all bindings ONLINE after 15 minutes");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const onlineSeconds = (performance.now() - started) / 1000;

  const admin = kafkaClient(kafka.bootstrapServers).admin();
  await admin.connect();
  try {
    const topics = new Set(await admin.listTopics());
    const missing = names.filter((name) => !topics.has(name));
    if (missing.length > 0)
      throw new Error(`${missing.length} topics missing, e.g. ${missing.slice(0, 3).join(", ")}`);
    const metadata = await admin.fetchTopicMetadata({ topics: names });
    const wrong = metadata.topics.filter((topic) => topic.partitions.length !== partitions);
    if (wrong.length > 0) throw new Error(`${wrong.length} topics without ${partitions} partitions`);
  } finally {
    await admin.disconnect();
  }

  // The floor: the same number of topics created straight through kafkajs, one per request.
  const baselineAdmin = kafkaClient(kafka.bootstrapServers).admin();
  await baselineAdmin.connect();
  let baselineSeconds = NaN;
  let batchSeconds = NaN;
  try {
    let nextTopic = 0;
    const baselineStarted = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = nextTopic++; i < count; i = nextTopic++) {
          const topic = `baseline_${String(i).padStart(5, "0")}`;
          // Not kafkajs' waitForLeaders (on by default): it gives up when the broker's metadata does
          // not know the new topic yet (UNKNOWN_TOPIC_OR_PARTITION, common under concurrent creates).
          await baselineAdmin.createTopics({
            waitForLeaders: false,
            topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }],
          });
          await waitForLeaders(baselineAdmin, topic);
        }
      }),
    );
    baselineSeconds = (performance.now() - baselineStarted) / 1000;
    // The batched floor: the same number of topics again, in one CreateTopics request.
    const batchStarted = performance.now();
    const batch = Array.from({ length: count }, (_, i) => `batch_${String(i).padStart(5, "0")}`);
    await baselineAdmin.createTopics({
      waitForLeaders: false,
      topics: batch.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
    });
    for (const topic of batch) await waitForLeaders(baselineAdmin, topic);
    batchSeconds = (performance.now() - batchStarted) / 1000;
  } finally {
    await baselineAdmin.disconnect();
  }

  const latencies = (await allBindings())
    .map((b) => Date.parse(b.status.updatedAt) - Date.parse(b.createdAt))
    .sort((a, b) => a - b);
  // Failed attempts the reconciler retried (with backoff): they explain a long tail.
  const warnings = new Map<string, number>();
  for (const entry of registry.entries()) {
    if (typeof entry.level === "number" && entry.level >= 40) {
      const err = entry.err as { message?: string } | undefined;
      const detail = String(entry.error ?? entry.message ?? err?.message ?? "");
      const key = `${String(entry.msg)}: ${detail}`.replace(/bench_\d+/g, "bench_N").slice(0, 200);
      warnings.set(key, (warnings.get(key) ?? 0) + 1);
    }
  }
  // The reconciler's batches (one CreateTopics each): how many, how big, how long.
  const batches = registry
    .entries()
    .filter((entry) => entry.msg === "batch realized")
    .map((entry) => ({ jobs: Number(entry.jobs), ms: Number(entry.durationMs) }));
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  console.table({
    kafka: `${kafka.bootstrapServers} (broker ready in ${brokerSeconds.toFixed(1)} s)`,
    database: kind,
    "bindings (= topics)": count,
    partitions,
    concurrency,
    "seconds creating streams + bindings": createSeconds.toFixed(1),
    "seconds until all ONLINE": onlineSeconds.toFixed(1),
    "topics ONLINE per second": (count / onlineSeconds).toFixed(1),
    "create→ONLINE p50 ms": percentile(latencies, 50).toFixed(0),
    "create→ONLINE p90 ms": percentile(latencies, 90).toFixed(0),
    "create→ONLINE p99 ms": percentile(latencies, 99).toFixed(0),
    "create→ONLINE max ms": (latencies.at(-1) ?? NaN).toFixed(0),
    "reconciler batches (median jobs, median ms)": `${batches.length} (${median(batches.map((b) => b.jobs))}, ${median(batches.map((b) => b.ms))})`,
    "topics verified with kafkajs": `${count} listed, ${partitions} partitions each`,
    "baseline: same topics via kafkajs alone, s": baselineSeconds.toFixed(1),
    "baseline topics per second": (count / baselineSeconds).toFixed(1),
    "batched baseline: one CreateTopics request, s": batchSeconds.toFixed(1),
    "batched baseline topics per second": (count / batchSeconds).toFixed(1),
  });
  if (warnings.size > 0) {
    console.log("registry warnings and errors during the run (count, message):");
    for (const [msg, n] of [...warnings].sort((a, b) => b[1] - a[1]).slice(0, 5))
      console.log(`  ${n}× ${msg}`);
  }
} catch (error) {
  console.error(`--- registry log (last 30 lines) ---\n${registry.logs.slice(-30).join("\n")}`);
  console.error(`--- broker log (last 30 lines) ---\n${kafka.logTail(30)}`);
  throw error;
} finally {
  registry.kill("SIGTERM");
  await registry.exited;
  await database.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await kafka[Symbol.asyncDispose]();
}

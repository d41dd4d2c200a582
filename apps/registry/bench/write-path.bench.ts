/**
 * npm run bench:writes [-- --streams 400 --database pglite|postgres]
 *
 * Where a write's time goes. Runs the same workload (createStream + createBinding, reconciled by
 * the registry-only provider) twice against one registry process, first with one client, then
 * with eight, and prints server-side latency percentiles per operation from the registry's own
 * request and reconcile logs, and throughput for both (until every binding is ONLINE). The ratio
 * shows how much longer a write takes when eight clients write at once (writers run in parallel,
 * docs/architecture.md "Writers in parallel"). Then, in the same run, the floor: raw single-row
 * inserts through the project's Prisma client at 1 and 8 clients.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  createTestDatabase,
  databaseEnv,
  postGraphQL,
  spawnRegistry,
  type RegistryProcess,
} from "@stream-registry/testkit";
import { prismaInsertRate } from "./prisma-floor.ts";

const { values } = parseArgs({
  options: { streams: { type: "string", default: "400" }, database: { type: "string", default: "pglite" } },
});
const streams = Number(values.streams);
const kind = values.database === "postgres" ? "postgres" : "pglite";

const database = await createTestDatabase(kind, "writes");
const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-writes-")) : undefined;
const registry = await spawnRegistry({
  ...databaseEnv(database.url, dataDir),
  LOG_LEVEL: "info",
});

async function round(label: string, clients: number) {
  await postGraphQL(
    registry.url,
    `mutation { declareCluster(input: { name: "${label}" }) { userErrors { message } } }`,
  );
  const firstLog = registry.logs.length;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < streams; i = next++) {
        const name = `${label}_${i}`;
        await postGraphQL(
          registry.url,
          `mutation CreateStream($i: CreateStreamInput!) { createStream(input: $i) { userErrors { message } } }`,
          {
            i: { name },
          },
        );
        await postGraphQL(
          registry.url,
          `mutation CreateBinding($i: CreateBindingInput!) { createBinding(input: $i) { userErrors { message } } }`,
          {
            i: { stream: name, cluster: label },
          },
        );
      }
    }),
  );
  // Written: the clients' part alone. Realized too: the reconciler's writes are part of the path.
  const writtenPerSecond = streams / ((performance.now() - started) / 1000);
  await waitOnline(registry, label);
  const perSecond = streams / ((performance.now() - started) / 1000);
  return { perSecond, writtenPerSecond, latencies: latenciesSince(registry, firstLog) };
}

async function waitOnline(r: RegistryProcess, cluster: string) {
  for (;;) {
    const { data } = await postGraphQL<{ bindings: { totalCount: number } }>(
      r.url,
      `{ bindings(filter: { cluster: "${cluster}", phase: ONLINE }) { totalCount } }`,
    );
    if (data?.bindings.totalCount === streams) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function latenciesSince(r: RegistryProcess, firstLog: number): Map<string, number[]> {
  const byOperation = new Map<string, number[]>();
  for (const line of r.logs.slice(firstLog)) {
    const entry = JSON.parse(line) as {
      msg?: string;
      operationName?: string;
      outcome?: string;
      durationMs?: number;
    };
    const key =
      entry.msg === "request" && entry.operationName?.startsWith("Create")
        ? entry.operationName
        : entry.msg === "reconcile"
          ? `reconcile (${entry.outcome})`
          : undefined;
    if (key && typeof entry.durationMs === "number")
      byOperation.set(key, [...(byOperation.get(key) ?? []), entry.durationMs]);
  }
  return byOperation;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((p / 100) * (values.length - 1))]!;

let one: Awaited<ReturnType<typeof round>>;
let eight: Awaited<ReturnType<typeof round>>;
try {
  one = await round("one", 1);
  eight = await round("eight", 8);
} finally {
  registry.kill("SIGTERM");
  await registry.exited;
}
try {
  // The floor, in the same run: raw inserts through Prisma on the same kind of database (the same
  // PostgreSQL database; a fresh PGlite directory, since the registry's is its own).
  const floor1 = await prismaInsertRate(database.url, streams, 1);
  const floor8 = await prismaInsertRate(database.url, streams, 8);
  const rows: Record<string, Record<string, string>> = {};
  for (const [operation, values] of one.latencies) {
    const contended = eight.latencies.get(operation) ?? [];
    rows[operation] = {
      "p50 ms (1 client)": String(percentile(values, 50)),
      "p90 ms (1 client)": String(percentile(values, 90)),
      "p50 ms (8 clients)": String(percentile(contended, 50)),
      "p90 ms (8 clients)": String(percentile(contended, 90)),
      "p50 ratio 8/1": (percentile(contended, 50) / Math.max(1, percentile(values, 50))).toFixed(1),
    };
  }
  // The floor's own ratio: what eight writers at once cost each other on this machine, with no registry.
  rows["floor: raw Prisma insert"] = {
    "p50 ms (1 client)": percentile(floor1.latencies, 50).toFixed(2),
    "p90 ms (1 client)": percentile(floor1.latencies, 90).toFixed(2),
    "p50 ms (8 clients)": percentile(floor8.latencies, 50).toFixed(2),
    "p90 ms (8 clients)": percentile(floor8.latencies, 90).toFixed(2),
    "p50 ratio 8/1": (percentile(floor8.latencies, 50) / percentile(floor1.latencies, 50)).toFixed(1),
  };
  console.log(`${kind}, ${streams} streams per round`);
  console.table(rows);
  console.table({
    "streams created/s (stream + binding + realized)": {
      "1 client": one.perSecond.toFixed(1),
      "8 clients": eight.perSecond.toFixed(1),
      "ratio 8/1": (eight.perSecond / one.perSecond).toFixed(2),
    },
    "of which written/s (stream + binding, not yet realized)": {
      "1 client": one.writtenPerSecond.toFixed(1),
      "8 clients": eight.writtenPerSecond.toFixed(1),
      "ratio 8/1": (eight.writtenPerSecond / one.writtenPerSecond).toFixed(2),
    },
    "floor: raw Prisma stream inserts/s": {
      "1 client": floor1.perSecond.toFixed(1),
      "8 clients": floor8.perSecond.toFixed(1),
      "ratio 8/1": (floor8.perSecond / floor1.perSecond).toFixed(2),
    },
    "registry as % of the floor": {
      "1 client": ((100 * one.perSecond) / floor1.perSecond).toFixed(1),
      "8 clients": ((100 * eight.perSecond) / floor8.perSecond).toFixed(1),
      "ratio 8/1": "",
    },
  });
} finally {
  await database.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

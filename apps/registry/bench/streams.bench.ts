/**
 * npm run bench [-- --streams 10000 --concurrency 8 --page 100 --rounds 3 --database pglite|postgres]
 *
 * Starts a registry as its own process (as `npm start` does), creates N streams with one binding
 * each through the GraphQL API, waits until every binding is ONLINE, then pages through all
 * streams with their bindings and clusters (one pass to warm up, one measured). Prints
 * throughput, page latency percentiles and the registry's peak RSS; then, in the same run, the
 * floor: the same pages read straight through Prisma, warmed up the same way. Then security's cost
 * (issue 11): the same pages read by a reader (an API token with a reader grant at "/") from the
 * registry restarted with NODE_ENV=production and authentication on, and from it restarted with
 * NODE_ENV=development and REGISTRY_AUTH=none (refused in production; the request path's only
 * production-only behaviour is security's, the schema-visibility check), alternating, --rounds
 * times each, a warm-up pass and three measured ones at each start. A benchmark, not a test: it asserts nothing about speed.
 */
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, databaseEnv, postGraphQL, spawnRegistry } from "@stream-registry/testkit";
import { prismaPageLatencies } from "./prisma-floor.ts";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "10000" },
    concurrency: { type: "string", default: "8" },
    page: { type: "string", default: "100" },
    database: { type: "string", default: "pglite" },
    rounds: { type: "string", default: "3" },
  },
});
const streams = Number(values.streams);
const concurrency = Number(values.concurrency);
const pageSize = Number(values.page);
const kind = values.database === "postgres" ? "postgres" : "pglite";
const rounds = Number(values.rounds);

const database = await createTestDatabase(kind, "bench");
const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-bench-")) : undefined;
const production = { NODE_ENV: "production" };
const start = (env: Record<string, string>) =>
  spawnRegistry({
    ...databaseEnv(database.url, dataDir),
    LOG_LEVEL: "info", // as in production: one line per request
    ...env,
  });
let registry = await start(production);
/** The Authorization header of the requests: the testkit's admin token unless set. */
let headers: Record<string, string> = {};

async function call(query: string, variables?: Record<string, unknown>) {
  const response = await postGraphQL(registry.url, query, variables, headers);
  if (response.errors?.length) throw new Error(JSON.stringify(response.errors));
  return response.data as Record<string, { userErrors?: unknown[] }>;
}

async function stop() {
  registry.kill("SIGTERM");
  await registry.exited;
}

/** A pass to warm up after a (re)start, then the median page latency of three measured ones. */
async function pagesP50(): Promise<number> {
  await readAllPages();
  const latencies: number[] = [];
  for (let pass = 0; pass < 3; pass++) latencies.push(...(await readAllPages()));
  return median(latencies);
}

async function readAllPages(): Promise<number[]> {
  const latencies: number[] = [];
  let after: string | null = null;
  let seen = 0;
  do {
    const t = performance.now();
    const data = (await call(
      `query($first: Int, $after: String) { streams(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor } nodes { name bindings { fqn cluster { name } status { phase } } } } }`,
      { first: pageSize, after },
    )) as unknown as { streams: { pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: unknown[] } };
    latencies.push(performance.now() - t);
    seen += data.streams.nodes.length;
    after = data.streams.pageInfo.hasNextPage ? data.streams.pageInfo.endCursor : null;
  } while (after);
  if (seen !== streams) throw new Error(`paged ${seen} streams, expected ${streams}`);
  return latencies;
}

try {
  await call(`mutation { declareCluster(input: { name: "bench-cluster" }) { userErrors { message } } }`);
  const config = {
    "acme.kafka": { owner: "bench@acme.com", team: "bench" },
    "apache.kafka": { partitions: 6 },
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < streams; i = next++) {
        const name = `bench_${String(i).padStart(6, "0")}`;
        await call(
          `mutation($i: CreateStreamInput!) { createStream(input: $i) { userErrors { message } } }`,
          {
            i: { name, config },
          },
        );
        await call(
          `mutation($i: CreateBindingInput!) { createBinding(input: $i) { userErrors { message } } }`,
          {
            i: { stream: name, cluster: "bench-cluster" },
          },
        );
      }
    }),
  );
  const createSeconds = (performance.now() - started) / 1000;
  const online = async () =>
    (
      (await call(`{ bindings(filter: { phase: ONLINE }) { totalCount } }`)).bindings as unknown as {
        totalCount: number;
      }
    ).totalCount;
  while ((await online()) < streams) await new Promise((r) => setTimeout(r, 250));
  const onlineSeconds = (performance.now() - started) / 1000;

  // As for the floor: one pass to warm up (the read path's code is still cold after the writes),
  // then one measured.
  await readAllPages();
  const latencies = await readAllPages();
  latencies.sort((a, b) => a - b);
  const pct = (values: number[], p: number) =>
    values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!.toFixed(1);
  const status = await readFile(`/proc/${registry.pid}/status`, "utf8").catch(() => "");
  const peakMiB = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;

  // Security on beside off: a reader's token, then restarts alternating between the two.
  const token = (await call(
    `mutation { createApiToken(input: { name: "bench-reader" }) { secret userErrors { message } } }`,
  )) as unknown as { createApiToken: { secret: string } };
  await call(
    `mutation { grant(input: { principal: "token:bench-reader", role: "reader" }) { userErrors { message } } }`,
  );
  const secured: number[] = [];
  const open: number[] = [];
  for (let round = 0; round < rounds; round++) {
    await stop();
    registry = await start(production);
    headers = { authorization: `Bearer ${token.createApiToken.secret}` };
    secured.push(await pagesP50());
    await stop();
    registry = await start({ NODE_ENV: "development", REGISTRY_AUTH: "none" });
    headers = { authorization: "" };
    open.push(await pagesP50());
  }
  await stop();
  // The floor, in the same run: the same pages straight through Prisma from the same database.
  const floor = (await prismaPageLatencies(database.url, dataDir, pageSize)).sort((a, b) => a - b);
  const results = {
    database: kind,
    streams,
    concurrency,
    "streams created/s (stream + binding)": (streams / createSeconds).toFixed(1),
    "seconds until all ONLINE": onlineSeconds.toFixed(1),
    pages: latencies.length,
    "page size": pageSize,
    "page p50 ms": pct(latencies, 50),
    "page p99 ms": pct(latencies, 99),
    "floor: same page via Prisma p50 ms": pct(floor, 50),
    "floor p99 ms": pct(floor, 99),
    "page p50 / floor p50": (Number(pct(latencies, 50)) / Number(pct(floor, 50))).toFixed(1),
    "registry peak RSS MiB": peakMiB.toFixed(0),
    "security on (reader token): page p50 ms, median of rounds": median(secured).toFixed(1),
    "security off (REGISTRY_AUTH=none): page p50 ms, median of rounds": median(open).toFixed(1),
    "security on / off": (median(secured) / median(open)).toFixed(2),
    "rounds (on | off p50s)": `${secured.map((v) => v.toFixed(1)).join(" ")} | ${open.map((v) => v.toFixed(1)).join(" ")}`,
  };
  console.table(results);
} finally {
  await stop();
  await database.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

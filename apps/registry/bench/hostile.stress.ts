/**
 * npm run stress [-- --rounds 10 --concurrency 8 --streams 200 --growth-bound 256 --heap-mb 384 --database pglite|postgres]
 *
 * Starts a registry as its own process in production mode, fills it with streams (three bindings
 * each), then fires query bombs at it from several clients: the nested and alias bombs that once
 * killed it, and the heaviest queries the limits still let through. A prober asks `{ __typename }`
 * all the while, and the registry's RSS is sampled every 100 ms. Prints the figures; exits 1 when
 * RSS grew by more than the bound over its level before the bombing (PGlite alone holds several
 * hundred MiB), the process died, or any answer was INTERNAL_SERVER_ERROR. The registry runs with
 * V8's old space capped at --heap-mb (0: Node's default, about a sixth of the machine's memory),
 * as docs/operations.md advises for production: without a cap V8 lets garbage pile up, and RSS
 * says more about the collector's patience than about what a request holds.
 * Not part of `npm test`: it takes minutes and measures, it does not prove.
 */
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, databaseEnv, postGraphQL, spawnRegistry } from "@stream-registry/testkit";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "8" },
    streams: { type: "string", default: "200" },
    "growth-bound": { type: "string", default: "256" },
    "heap-mb": { type: "string", default: "384" },
    database: { type: "string", default: "pglite" },
  },
});
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const streams = Number(values.streams);
const growthBoundMiB = Number(values["growth-bound"]);
const heapMiB = Number(values["heap-mb"]);
const kind = values.database === "postgres" ? "postgres" : "pglite";

const aliases = (n: number, selection: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(" ")} }`;
const bombs: Record<string, string> = {
  "nested bomb (19 stream/bindings pairs)": `{ stream(name: "s_0") { ${"bindings { stream { ".repeat(19)}name${" } }".repeat(19)} } }`,
  "alias bomb (1,000 pages of 500 with bindings)": aliases(
    1_000,
    "streams(first: 500) { nodes { name bindings { fqn } } }",
  ),
  "token bomb (5,001 tokens)": `{ ${"__typename ".repeat(4_999)}}`,
  "heaviest allowed: 30 aliases of a page of 50 with bindings": aliases(
    30,
    "streams(first: 50) { nodes { name bindings { fqn status { phase } } } }",
  ),
  "heaviest allowed: a page of 500 with configs, bindings and clusters": `{ streams(first: 500) { nodes {
    name config producerConfig bindings { fqn config cluster { name provider } status { phase generation } } } } }`,
  "deepest allowed: 12 levels": `{ stream(name: "s_0") { bindings { stream { bindings { stream { bindings {
    cluster { bindings { stream { name } } } } } } } } } }`,
};

const database = await createTestDatabase(kind, "stress");
const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-stress-")) : undefined;
const registry = await spawnRegistry({
  ...databaseEnv(database.url, dataDir),
  LOG_LEVEL: "info", // as in production: one line per request
  NODE_ENV: "production",
  ...(heapMiB > 0 ? { NODE_OPTIONS: `--max-old-space-size=${heapMiB}` } : {}),
});
const rssMiB = async (field: "VmRSS" | "VmHWM") => {
  const status = await readFile(`/proc/${registry.registryPid}/status`, "utf8").catch(() => "");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
};
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function mutate(query: string, input: Record<string, unknown>): Promise<void> {
  const { errors, data } = await postGraphQL(registry.url, query, { input });
  if (errors?.length || !JSON.stringify(data).includes('"userErrors":[]')) {
    throw new Error(`seeding failed: ${JSON.stringify(errors ?? data)}`);
  }
}

let failed = false;
try {
  for (const cluster of ["c1", "c2", "c3"]) {
    await mutate(
      "mutation($input: DeclareClusterInput!) { declareCluster(input: $input) { userErrors { code } } }",
      {
        name: cluster,
      },
    );
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < streams; i = next++) {
        await mutate(
          "mutation($input: CreateStreamInput!) { createStream(input: $input) { userErrors { code } } }",
          {
            name: `s_${i}`,
            config: {
              "apache.kafka": { partitions: 3 },
              "acme.kafka": { team: "stress", owner: "stress@acme.com" },
            },
          },
        );
        for (const cluster of ["c1", "c2", "c3"]) {
          await mutate(
            "mutation($input: CreateBindingInput!) { createBinding(input: $input) { userErrors { code } } }",
            {
              stream: `s_${i}`,
              cluster,
            },
          );
        }
      }
    }),
  );
  const baselineMiB = await rssMiB("VmRSS");

  let peakMiB = baselineMiB;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakMiB = Math.max(peakMiB, await rssMiB("VmRSS"));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const probes: number[] = [];
  const prober = (async () => {
    while (sampling) {
      const t = performance.now();
      await postGraphQL(registry.url, "{ __typename }");
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const rows: Record<string, unknown>[] = [];
  const started = performance.now();
  for (const [name, query] of Object.entries(bombs)) {
    const latencies: number[] = [];
    const codes = new Map<string, number>();
    let sent = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (sent++ < rounds * concurrency) {
          const t = performance.now();
          const { errors } = await postGraphQL(registry.url, query);
          latencies.push(performance.now() - t);
          const code = (errors?.[0]?.extensions?.code as string | undefined) ?? "answered";
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (code === "INTERNAL_SERVER_ERROR") failed = true;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    rows.push({
      bomb: name,
      requests: latencies.length,
      answers: [...codes].map(([code, n]) => `${code} ${n}`).join(", "),
      "p50 ms": percentile(latencies, 50).toFixed(0),
      "p99 ms": percentile(latencies, 99).toFixed(0),
    });
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await Promise.all([sampler, prober]);
  probes.sort((a, b) => a - b);
  const alive = registry.running();
  console.table(rows);
  console.table({
    database: kind,
    "streams (3 bindings each)": streams,
    concurrency,
    "bombing seconds": seconds.toFixed(1),
    "V8 old space cap MiB": heapMiB || "Node's default",
    "RSS before bombing MiB": baselineMiB.toFixed(0),
    "peak RSS while bombing MiB": peakMiB.toFixed(0),
    "RSS growth MiB": (peakMiB - baselineMiB).toFixed(0),
    "RSS growth bound MiB": growthBoundMiB,
    "{ __typename } probes": probes.length,
    "probe p50 ms": percentile(probes, 50).toFixed(1),
    "probe p99 ms": percentile(probes, 99).toFixed(1),
    "probe max ms": (probes.at(-1) ?? NaN).toFixed(1),
    "registry still running": alive,
  });
  if (peakMiB - baselineMiB > growthBoundMiB || !alive) failed = true;
} catch (error) {
  failed = true;
  console.error(error);
  console.error(`registry's last log lines:\n${registry.logs.slice(-15).join("\n")}`);
} finally {
  registry.kill("SIGTERM");
  await registry.exited;
  await database.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error("stress: FAILED (RSS grew over the bound, the registry died, or an INTERNAL_SERVER_ERROR)");
  process.exit(1);
}

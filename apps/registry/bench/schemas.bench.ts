/**
 * npm run bench:schemas [-- --registrations 300 --subjects 50 --lookups 3000 --clients 4 --rounds 3 --database pglite|postgres]
 *
 * The built-in schema registry's cost over HTTP (issue 12, Must 8). A registry process in
 * production mode (as `npm start` runs it; its rate limit off: the API is measured, not the
 * limiter) takes `--registrations` distinct schemas under `--subjects` subjects through
 * POST /schema-registry/subjects/{s}/versions, then `--lookups` GET /schema-registry/schemas/ids/{id},
 * from `--clients` concurrent clients over keep-alive connections, Basic auth with the admin
 * token. In the same run, the floor: the same workload through the same code called in this
 * process (the built-in SchemaManager over createSchemaRegistry) on a database of its own. Each
 * round uses fresh subjects; the table gives the median over `--rounds` rounds of each figure
 * (per-call p50 and p90, calls per second) and the ratio HTTP/in-process. A benchmark, not a test.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { SchemaContext } from "@stream-registry/provider-api";
import { migrate, openDatabase } from "@stream-registry/store";
import { createTestDatabase, databaseEnv, TEST_ADMIN_TOKEN, spawnRegistry } from "@stream-registry/testkit";
import { builtInSchemaManager } from "../src/schema-registry/built-in-schema-manager.ts";
import { createSchemaRegistry } from "../src/schema-registry/schema-registry.ts";
import {
  lookupAll,
  median,
  percentile,
  registerAll,
  type Measured,
  type SchemaCalls,
} from "./schemas-workload.ts";

const { values } = parseArgs({
  options: {
    registrations: { type: "string", default: "300" },
    subjects: { type: "string", default: "50" },
    lookups: { type: "string", default: "3000" },
    clients: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    database: { type: "string", default: "pglite" },
  },
});
const count = Number(values.registrations);
const subjectCount = Number(values.subjects);
const lookups = Number(values.lookups);
const clients = Number(values.clients);
const rounds = Number(values.rounds);
const kind = values.database === "postgres" ? "postgres" : "pglite";

/** The REST API of a registry process, as a Confluent client calls it. */
function restCalls(graphqlUrl: string, round: number): SchemaCalls {
  const base = graphqlUrl.replace(/\/graphql$/, "/schema-registry");
  const authorization = `Basic ${Buffer.from(`bench:${TEST_ADMIN_TOKEN}`).toString("base64")}`;
  const contentType = "application/vnd.schemaregistry.v1+json";
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(url, {
      method,
      headers: { authorization, ...(body !== undefined && { "content-type": contentType }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as { id?: number };
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  return {
    async register(subject, schema) {
      const url = `${base}/subjects/${encodeURIComponent(`r${round}-${subject}`)}/versions`;
      return (await call("POST", url, { schema })).id!;
    },
    async lookup(id) {
      await call("GET", `${base}/schemas/ids/${id}`);
    },
  };
}

/** The same code in this process: the built-in SchemaManager, as the registry's services call it. */
function inProcessCalls(manager: ReturnType<typeof builtInSchemaManager>, round: number): SchemaCalls {
  const context: SchemaContext = {
    signal: new AbortController().signal,
    cluster: { namespace: "/", name: "", config: {} },
    actor: "bench",
  };
  return {
    register: async (subject, schema) =>
      (await manager.registerSchema(`r${round}-${subject}`, { schema }, context)).id,
    async lookup(id) {
      await manager.getSchemaById(id, context);
    },
  };
}

/** Registrations then look-ups, `rounds` times on fresh subjects. */
async function measure(calls: (round: number) => SchemaCalls) {
  const results: { registrations: Measured; lookups: Measured }[] = [];
  for (let round = 0; round < rounds; round++) {
    const registrations = await registerAll(calls(round), { count, subjects: subjectCount, clients });
    const found = await lookupAll(calls(round), { count: lookups, ids: registrations.ids, clients });
    results.push({ registrations, lookups: found });
  }
  return results;
}

const database = await createTestDatabase(kind, "schemas");
const floorDatabase = await createTestDatabase(kind, "schemas-floor");
const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-schemas-")) : undefined;
const floorDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-schemas-floor-")) : undefined;
try {
  const registry = await spawnRegistry({
    ...databaseEnv(database.url, dataDir),
    NODE_ENV: "production",
    LOG_LEVEL: "info", // as in production: one line per request
    REGISTRY_RATE_LIMIT_POINTS: "0",
  });
  let overHttp;
  try {
    overHttp = await measure((round) => restCalls(registry.url, round));
  } finally {
    registry.kill("SIGTERM");
    await registry.exited;
  }
  const db = await openDatabase({ url: floorDatabase.url, dataDir: floorDir });
  let inProcess;
  try {
    await migrate(db);
    const manager = builtInSchemaManager(createSchemaRegistry({ db }));
    inProcess = await measure((round) => inProcessCalls(manager, round));
  } finally {
    await db.close();
  }
  report(overHttp, inProcess);
} finally {
  await database.drop();
  await floorDatabase.drop();
  for (const dir of [dataDir, floorDir]) if (dir) await rm(dir, { recursive: true, force: true });
}

function report(
  http: { registrations: Measured; lookups: Measured }[],
  floor: { registrations: Measured; lookups: Measured }[],
) {
  const rows: Record<string, Record<string, string>> = {};
  for (const phase of ["registrations", "lookups"] as const) {
    const figure = (runs: typeof http, f: (m: Measured) => number) =>
      median(runs.map((run) => f(run[phase])));
    const p50 = (m: Measured) => percentile(m.latencies, 50);
    const p90 = (m: Measured) => percentile(m.latencies, 90);
    const rate = (m: Measured) => m.perSecond;
    const label = phase === "registrations" ? "registrations" : "look-ups by id";
    for (const [name, f, digits] of [
      ["per second", rate, 0],
      ["p50 ms", p50, 2],
      ["p90 ms", p90, 2],
    ] as const) {
      const [overHttp, inProcess] = [figure(http, f), figure(floor, f)];
      rows[`${label}: ${name}`] = {
        "REST API (HTTP)": overHttp.toFixed(digits),
        "in process (floor)": inProcess.toFixed(digits),
        "ratio HTTP / in process": (overHttp / inProcess).toFixed(2),
      };
    }
  }
  console.log(
    `${kind}; ${count} registrations under ${subjectCount} subjects and ${lookups} look-ups per round, ` +
      `${clients} clients, median of ${rounds} rounds; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );
  console.table(rows);
}

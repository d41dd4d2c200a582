import { afterEach, describe, expect, it } from "vitest";
import {
  createAgain,
  createTestDatabase,
  dropUnderneath,
  type TestDatabase,
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  eventually,
} from "@stream-registry/testkit";
import { startTestRegistry, type TestRegistry } from "./support/test-registry.ts";

// What an anonymous caller must never see of a database fault: its name, its URL, the driver's text.
const leaks = (database: TestDatabase) => [
  new URL(database.url!).pathname.slice(1),
  "127.0.0.1",
  "does not exist",
  "3D000",
  "relation",
  "Prisma",
];

describe("a registry whose PostgreSQL database is dropped and created again (production)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  let running: TestRegistry[] = [];
  afterEach(async (context) => {
    if (context.task.result?.state === "fail") {
      for (const r of running) {
        // eslint-disable-next-line no-console -- a failing test shows what the registry logged
        console.error(`registry log:\n${r.logs.slice(-100).join("\n")}`);
      }
    }
    running = [];
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function setUp(registries = 1) {
    const database = await createTestDatabase("postgres", "faults");
    cleanup.push(() => database.drop());
    const started: TestRegistry[] = [];
    for (let i = 0; i < registries; i++) {
      const registry = await startTestRegistry({ database, env: { NODE_ENV: "production" } });
      cleanup.push(() => registry.stop());
      started.push(registry);
    }
    running = started;
    return { database, registries: started };
  }

  it("answers DATABASE_UNAVAILABLE and a bare /readyz while it is gone, and recovers without a restart", async () => {
    const { database, registries } = await setUp();
    const registry = registries[0]!;
    await registry.query(CREATE_STREAM, { input: { name: "before_drop" } });
    expect((await fetch(new URL("/readyz", registry.url))).status).toBe(200);

    await dropUnderneath(database);

    const query = await registry.request("{ streams(first: 10) { totalCount } }");
    const mutation = await registry.request(CREATE_STREAM, { input: { name: "while_gone" } });
    for (const response of [query, mutation]) {
      expect(response.status).toBe(503);
      expect(response.errors).toEqual([
        expect.objectContaining({
          message: "the registry's database is unavailable",
          extensions: { code: "DATABASE_UNAVAILABLE", requestId: expect.any(String) },
        }),
      ]);
      for (const leak of leaks(database)) expect(JSON.stringify(response)).not.toContain(leak);
    }

    const ready = await fetch(new URL("/readyz", registry.url), {
      headers: { "x-request-id": "probe-gone" },
    });
    const text = await ready.text();
    expect(ready.status).toBe(503);
    expect(JSON.parse(text)).toEqual({
      status: "not ready",
      checks: { database: "unavailable", migrations: "unknown", reconciler: "running" },
    });
    for (const leak of leaks(database)) expect(text).not.toContain(leak);
    // The details are in the log, under the probe's request id.
    const logged = registry.logs
      .map((line) => JSON.parse(line) as { requestId?: string; err?: { message?: string } })
      .find((entry) => entry.requestId === "probe-gone" && entry.err);
    expect(logged?.err?.message).toContain("does not exist");

    // Still alive, and the reconciler did not crash on the lost database.
    expect((await fetch(new URL("/healthz", registry.url))).status).toBe(200);
    expect(registry.reconciler.isRunning).toBe(true);
    // It backs off instead of polling a lost database every RECONCILER_POLL_MS (200 ms here).
    const waits = await eventually(
      async () => {
        const found = registry.logs
          .map((line) => JSON.parse(line) as { msg?: string; delayMs?: number })
          .filter((entry) => entry.msg === "reconciler waits to lease again");
        return found.length >= 5 ? found : undefined;
      },
      20_000,
      "five failed leases",
    );
    expect(Math.max(...waits.map((w) => w.delayMs!))).toBeGreaterThanOrEqual(400);
    // One log line per distinct failure, not one per attempt. The drop can show first as a
    // terminated connection and then as a missing database: two distinct failures, two lines.
    const leaseErrors = registry.logs
      .map((line) => JSON.parse(line) as { msg?: string; err?: { message?: string } })
      .filter((entry) => entry.msg?.startsWith("reconciler cannot lease jobs"))
      .map((entry) => entry.err?.message);
    expect(leaseErrors.length).toBeGreaterThanOrEqual(1);
    expect(leaseErrors.length).toBeLessThan(waits.length);
    for (let i = 1; i < leaseErrors.length; i++) expect(leaseErrors[i]).not.toBe(leaseErrors[i - 1]);

    await createAgain(database);

    const recovered = await eventually(
      async () => {
        const response = await fetch(new URL("/readyz", registry.url));
        return response.status === 200 ? ((await response.json()) as unknown) : undefined;
      },
      20_000,
      "/readyz to be 200 again",
    );
    expect(recovered).toEqual({
      status: "ready",
      checks: { database: "ok", migrations: "applied", reconciler: "running" },
    });
    expect(registry.logs.some((line) => line.includes("database migrated while running"))).toBe(true);

    // A new, empty database: what was there before is gone, writes work, and the reconciler runs again.
    await registry.query(DECLARE_CLUSTER, { input: { name: "after" } });
    const created = await registry.query<{ createStream: { userErrors: unknown[] } }>(CREATE_STREAM, {
      input: { name: "after_recreate" },
    });
    expect(created.createStream.userErrors).toEqual([]);
    const { streams } = await registry.query<{ streams: { totalCount: number } }>(
      "{ streams(first: 10) { totalCount } }",
    );
    expect(streams.totalCount).toBe(1);
    await registry.query(CREATE_BINDING, { input: { stream: "after_recreate", cluster: "after" } });
    await eventually(
      async () => {
        const { binding } = await registry.query<{ binding: { status: { phase: string } } }>(BINDING, {
          stream: "after_recreate",
          cluster: "after",
        });
        return binding.status.phase === "ONLINE" ? true : undefined;
      },
      15_000,
      "the binding to be reconciled ONLINE",
    );
  });

  it("migrates again on the first request that finds the tables missing, with no readiness probe", async () => {
    const { database, registries } = await setUp();
    const registry = registries[0]!;
    await dropUnderneath(database);
    await createAgain(database);

    // The first request may still fail (as DATABASE_UNAVAILABLE), but it starts the migration.
    const first = await registry.request("{ streams(first: 10) { totalCount } }");
    for (const error of first.errors ?? []) expect(error.extensions?.code).toBe("DATABASE_UNAVAILABLE");
    await eventually(
      async () => {
        const response = await registry.request(CREATE_STREAM, { input: { name: "after_first_request" } });
        return response.errors ? undefined : response;
      },
      15_000,
      "a createStream to succeed",
    );
  });

  it("answers a valid token DATABASE_UNAVAILABLE, never UNAUTHENTICATED, until the emptied database is rebuilt", async () => {
    // Issue 19, finding 9: while migrations rebuilt the database, its api_token table existed
    // before the first admin token was made again, and the token was refused as unknown (401).
    const { database, registries } = await setUp();
    const registry = registries[0]!;
    await dropUnderneath(database);
    await createAgain(database);
    const statuses: number[] = [];
    await eventually(
      async () => {
        const response = await registry.request("{ streams(first: 1) { totalCount } }");
        statuses.push(response.status);
        return response.status === 200 || response.status === 401 ? true : undefined;
      },
      20_000,
      "the token to be answered again",
    );
    expect(statuses.filter((status) => status !== 503)).toEqual([200]);
  });

  it("lets registries sharing the database migrate it once between them", async () => {
    const { database, registries } = await setUp(2);
    await dropUnderneath(database);
    await createAgain(database);

    // Both notice at the same moment; PostgreSQL's advisory lock in migrate() orders them.
    const probes = await Promise.all(
      registries.map(async (registry) => (await fetch(new URL("/readyz", registry.url))).status),
    );
    expect(probes).toEqual([200, 200]);
    const [a, b] = registries as [TestRegistry, TestRegistry];
    const applied = await a.db.withSession((session) =>
      session.query<{ name: string }>("SELECT migration_name AS name FROM _prisma_migrations"),
    );
    const names = applied.map((row) => row.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    const migratedBy = [a, b].filter((r) =>
      r.logs.some((line) => {
        const entry = JSON.parse(line) as { msg?: string; applied?: string[] };
        return entry.msg === "database migrated while running" && (entry.applied?.length ?? 0) > 0;
      }),
    );
    expect(migratedBy).toHaveLength(1);
  });
});

import {
  createAgain,
  createTestDatabase,
  dropUnderneath,
  eventually,
  type TestDatabase,
} from "@stream-registry/testkit";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/database.ts";
import { isDatabaseUnavailable, isSchemaMissing, isUniqueViolation } from "../src/db-errors.ts";
import { leaseJobs } from "../src/job-queue.ts";
import { migrate } from "../src/migrate.ts";
import { writeTransaction } from "../src/transaction.ts";
import { prismaOf } from "../src/testing.ts";

/** The error `work` fails with; fails the test if it succeeds. */
async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

// Real errors, as they arrive through @prisma/adapter-pg and node-postgres, not hand-made look-alikes.
describe("database errors on PostgreSQL", () => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase("postgres", "db_errors");
    db = await openDatabase({ url: database.url, poolSize: 4 });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  // Every way the registry reaches the database: query builder, raw SQL, transactions, sessions.
  const calls: Record<string, (db: Database) => Promise<unknown>> = {
    "a model query": (d) => prismaOf(d.prisma).stream.findMany(),
    "a raw query": (d) => leaseJobs(d.prisma, "test", 1, 1_000),
    "a write transaction": (d) => writeTransaction(d.prisma, (tx) => prismaOf(tx).stream.findMany()),
    "a session": (d) => d.withSession((session) => session.query("SELECT count(*) FROM job")),
  };

  it("are not faults of availability when the request itself is wrong", async () => {
    await prismaOf(db.prisma).cluster.create({
      data: { name: "twice", provider: "registry-only", config: {} },
    });
    const duplicate = await failure(() =>
      prismaOf(db.prisma).cluster.create({ data: { name: "twice", provider: "registry-only", config: {} } }),
    );
    expect(isUniqueViolation(duplicate)).toBe(true);
    const syntax = await failure(() => prismaOf(db.prisma).$queryRawUnsafe("SELEC 1"));
    for (const error of [duplicate, syntax, new Error("boom"), undefined, "text"]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(isSchemaMissing(error)).toBe(false);
    }
  });

  it("name a connection killed under a query or between statements of a transaction", async () => {
    const inFlight = failure(() => prismaOf(db.prisma).$queryRaw`SELECT pg_sleep(5)`);
    const inSession = failure(() => db.withSession((session) => session.query("SELECT pg_sleep(5)")));
    let terminated!: () => void;
    const sessionsTerminated = new Promise<void>((resolve) => (terminated = resolve));
    const betweenStatements = failure(() =>
      prismaOf(db.prisma).$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await sessionsTerminated;
        await tx.stream.findMany();
      }),
    );
    // Killed once both sleeps run and the transaction waits between its statements.
    await eventually(
      async () => {
        const states = await sessionStates(database);
        const sleeping = states.filter((s) => s.state === "active" && s.query.includes("pg_sleep")).length;
        return sleeping === 2 && states.some((s) => s.state === "idle in transaction") ? true : undefined;
      },
      10_000,
      "two queries in flight and a transaction between statements",
    );
    await terminateSessions(database);
    terminated();
    for (const error of await Promise.all([inFlight, inSession, betweenStatements])) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(isSchemaMissing(error)).toBe(false);
    }
  });

  it("name a dropped database unavailable, and one created again empty as missing its schema", async () => {
    await dropUnderneath(database);
    for (const [what, call] of Object.entries(calls)) {
      const error = await failure(() => call(db));
      expect(isDatabaseUnavailable(error), `${what}: ${String(error)}`).toBe(true);
      expect(isSchemaMissing(error), what).toBe(false);
    }
    await createAgain(database);
    for (const [what, call] of Object.entries(calls)) {
      const error = await failure(() => call(db));
      expect(isSchemaMissing(error), `${what}: ${String(error)}`).toBe(true);
      expect(isDatabaseUnavailable(error), what).toBe(true);
    }
    await migrate(db);
    for (const call of Object.values(calls)) await call(db);
  });

  it("name a server that refuses connections or the login", async () => {
    const refused = await openDatabase({ url: "postgresql://root@127.0.0.1:1/none", poolSize: 1 });
    const url = new URL(database.url!);
    url.username = "no_such_role_here";
    const denied = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      for (const target of [refused, denied]) {
        for (const [what, call] of Object.entries(calls)) {
          const error = await failure(() => call(target));
          expect(isDatabaseUnavailable(error), `${what}: ${String(error)}`).toBe(true);
        }
      }
    } finally {
      await refused.close();
      await denied.close();
    }
  });
});

async function terminateSessions(database: TestDatabase): Promise<void> {
  await asAdmin(database, (client, name) =>
    client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]),
  );
}

/** The state and query of every session on `database`, as pg_stat_activity shows them. */
async function sessionStates(database: TestDatabase): Promise<{ state: string; query: string }[]> {
  const { rows } = await asAdmin(database, (client, name) =>
    client.query<{ state: string; query: string }>(
      "SELECT state, query FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    ),
  );
  return rows;
}

/** Runs `work` on a connection to the server's own database, beside `database`'s sessions. */
async function asAdmin<T>(
  database: TestDatabase,
  work: (client: pg.Client, name: string) => Promise<T>,
): Promise<T> {
  const name = new URL(database.url!).pathname.slice(1);
  const admin = new URL(database.url!);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client, name);
  } finally {
    await client.end();
  }
}

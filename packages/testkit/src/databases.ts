import { randomBytes } from "node:crypto";
import pg from "pg";

/** The databases every integration test runs against: the embedded default and a real PostgreSQL. */
export const databaseKinds = ["pglite", "postgres"] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

/** Where tests may create databases; CI and these machines have PostgreSQL at 127.0.0.1:5432. */
export const adminUrl = process.env.DATABASE_TEST_URL ?? "postgresql://root@127.0.0.1:5432/postgres";

export interface TestDatabase extends AsyncDisposable {
  kind: DatabaseKind;
  /** Set for PostgreSQL: a database of its own. */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file. PGlite needs no setup (the registry opens it in
 * memory or in a directory); PostgreSQL gets a new database, dropped afterwards.
 */
export async function createTestDatabase(kind: DatabaseKind, label = "test"): Promise<TestDatabase> {
  if (kind === "pglite") {
    const drop = async () => {};
    return { kind, url: undefined, drop, [Symbol.asyncDispose]: drop };
  }
  const name = `sr_${label.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  };
  return { kind, url: url.toString(), drop, [Symbol.asyncDispose]: drop };
}

/**
 * Drops a PostgreSQL test database behind the back of whoever uses it, as an operator's
 * DROP DATABASE would: their sessions are terminated first (WITH (FORCE)). `drop()` still cleans up.
 */
export async function dropUnderneath(database: TestDatabase): Promise<void> {
  const name = databaseName(database);
  await withAdmin((client) => client.query(`DROP DATABASE "${name}" WITH (FORCE)`));
}

/** Creates a database dropped by `dropUnderneath` again, empty, under the same name. */
export async function createAgain(database: TestDatabase): Promise<void> {
  const name = databaseName(database);
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
}

/**
 * A new PostgreSQL database holding a copy of the one at `url` (CREATE DATABASE ... TEMPLATE), as
 * someone who took a copy of it has: nobody may be connected to it meanwhile (stop its registry).
 */
export async function copyDatabase(url: string, label = "copy"): Promise<TestDatabase> {
  const copy = await createTestDatabase("postgres", label);
  const name = databaseName(copy);
  const from = decodeURIComponent(new URL(url).pathname.slice(1));
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE "${name}"`);
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${from}"`);
  });
  return copy;
}

function databaseName(database: TestDatabase): string {
  if (!database.url) throw new Error(`a ${database.kind} test database has no PostgreSQL database to drop`);
  return decodeURIComponent(new URL(database.url).pathname.slice(1));
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs one statement on the PostgreSQL database at `url`, behind the back of the registry using it
 * (as an operator, or a restore from a backup, would); returns the rows it changed or read.
 */
export async function queryDatabase(url: string, sql: string, params: unknown[] = []): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

import { execFile } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestDatabase } from "@stream-registry/testkit";
import type { TestDatabase } from "@stream-registry/testkit";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { openDatabase } from "../src/database.ts";
import type { Database } from "../src/database.ts";
import { migrate, pendingMigrations } from "../src/migrate.ts";
import { EditedMigrationError, FailedMigrationError, MigrationScriptError } from "../src/migration-errors.ts";
import { defaultMigrationsDir } from "../src/migration-files.ts";

const schemaTables = ["cluster", "stream", "binding", "job", "change"];

/** Hands out empty databases; `connect` opens another Database on the same one. */
interface Target {
  fresh(): Promise<{ connect(): Promise<Database> }>;
}

const pgliteTarget: Target = {
  async fresh() {
    return { connect: () => track(openDatabase({})) };
  },
};

// One PostgreSQL database for this file; each test gets a schema of its own in it.
let testDatabase: TestDatabase;
const postgresTarget: Target = {
  async fresh() {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    const client = new pg.Client({ connectionString: testDatabase.url });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`).finally(() => client.end());
    const url = `${testDatabase.url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return { connect: () => track(openDatabase({ url, poolSize: 2 })) };
  },
};

beforeAll(async () => {
  testDatabase = await createTestDatabase("postgres", "migrate");
});
afterAll(() => testDatabase?.drop());

// Each test opens fresh embedded databases: seconds apiece when the whole suite runs in parallel
// on a small machine, so these correctness tests get more time than the default.
describe.each([
  ["PGlite in memory", pgliteTarget],
  ["PostgreSQL", postgresTarget],
])("migrate on %s", { timeout: 90_000 }, (_, target) => {
  it("applies every migration, records it as Prisma does, and creates the tables", async () => {
    const db = await (await target.fresh()).connect();
    const names = await migrationNames(defaultMigrationsDir);

    expect(await pendingMigrations(db)).toEqual(names);
    expect(await migrate(db)).toEqual({ applied: names });

    expect(await existingTables(db, [...schemaTables, "_prisma_migrations"])).toEqual([
      ...schemaTables,
      "_prisma_migrations",
    ]);
    const records = await db.withSession((s) =>
      s.query<{
        migration_name: string;
        checksum: string;
        finished: boolean;
        applied_steps_count: number;
        id: string;
      }>(
        `SELECT migration_name, checksum, finished_at >= started_at AS finished, applied_steps_count, id
           FROM _prisma_migrations ORDER BY migration_name`,
      ),
    );
    expect(records.map((r) => r.migration_name)).toEqual(names);
    for (const record of records) {
      const file = await readFile(join(defaultMigrationsDir, record.migration_name, "migration.sql"));
      expect(record.checksum).toBe(createHash("sha256").update(file).digest("hex"));
      expect(record).toMatchObject({ finished: true, applied_steps_count: 1 });
      expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await pendingMigrations(db)).toEqual([]);
  });

  it("applies nothing the second time", async () => {
    const db = await (await target.fresh()).connect();
    await migrate(db);
    expect(await migrate(db)).toEqual({ applied: [] });
    expect(await recordCount(db)).toBe((await migrationNames(defaultMigrationsDir)).length);
  });

  it("refuses to start when an applied migration was edited, naming it", async () => {
    const db = await (await target.fresh()).connect();
    const dir = await copyOfMigrations();
    await migrate(db, { migrationsDir: dir });
    const [first] = await migrationNames(dir);
    await appendFile(join(dir, first!, "migration.sql"), "\n-- an afterthought\n");

    const refusal = migrate(db, { migrationsDir: dir });
    await expect(refusal).rejects.toBeInstanceOf(EditedMigrationError);
    await expect(refusal).rejects.toThrow(new RegExp(`migration ${first} was modified after it was applied`));
  });

  it("accepts a migration whose only change is CRLF line endings, as Prisma does", async () => {
    const db = await (await target.fresh()).connect();
    const dir = await copyOfMigrations();
    await migrate(db, { migrationsDir: dir });
    const [first] = await migrationNames(dir);
    const file = join(dir, first!, "migration.sql");
    await writeFile(file, (await readFile(file, "utf8")).replaceAll("\n", "\r\n"));

    expect(await migrate(db, { migrationsDir: dir })).toEqual({ applied: [] });
  });

  it("rolls back a failing migration, reports it with the database error, and applies it once fixed", async () => {
    const db = await (await target.fresh()).connect();
    const dir = await copyOfMigrations();
    const broken = "29990101000000_broken";
    const script = join(dir, broken, "migration.sql");
    await mkdir(join(dir, broken));
    await writeFile(script, 'CREATE TABLE "half_done" ("id" INTEGER);\nSELECT * FROM "no_such_table";\n');

    const failure = migrate(db, { migrationsDir: dir });
    await expect(failure).rejects.toBeInstanceOf(MigrationScriptError);
    await expect(failure).rejects.toThrow(
      /migration 29990101000000_broken failed.*"no_such_table" does not exist/,
    );

    expect(await existingTables(db, ["half_done"])).toEqual([]);
    expect(await pendingMigrations(db, { migrationsDir: dir })).toEqual([broken]);

    await writeFile(script, 'CREATE TABLE "half_done" ("id" INTEGER);\n');
    expect(await migrate(db, { migrationsDir: dir })).toEqual({ applied: [broken] });
    expect(await existingTables(db, ["half_done"])).toEqual(["half_done"]);
  });

  it("refuses to start while a migration is recorded as failed", async () => {
    const db = await (await target.fresh()).connect();
    await migrate(db);
    // What `prisma migrate deploy` leaves behind when a script fails.
    await db.withSession((s) =>
      s.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs) VALUES ($1, $2, $3, 'boom')`,
        [randomUUID(), "0".repeat(64), "29990101000000_failed"],
      ),
    );

    await expect(migrate(db)).rejects.toBeInstanceOf(FailedMigrationError);
    await expect(pendingMigrations(db)).rejects.toThrow(
      /migration 29990101000000_failed is recorded as failed/,
    );
  });
});

describe("migrate on PostgreSQL from several processes", () => {
  it("applies each migration once when two registries start together", async () => {
    const database = await postgresTarget.fresh();
    const [a, b] = await Promise.all([database.connect(), database.connect()]);
    const names = await migrationNames(defaultMigrationsDir);

    const results = await Promise.all([migrate(a), migrate(b)]);

    expect(results.flatMap((result) => result.applied).sort()).toEqual(names);
    expect(results.filter((result) => result.applied.length > 0)).toHaveLength(1);
    expect(await recordCount(a)).toBe(names.length);
  });
});

describe("prisma/migrations", () => {
  // Replays the migrations on a shadow database with Prisma's schema engine (a minute at most).
  it("holds every change in prisma/schema.prisma", { timeout: 120_000 }, async () => {
    const store = fileURLToPath(new URL("..", import.meta.url));
    const { stdout } = await promisify(execFile)("npx", ["tsx", "scripts/diff.ts", "--check"], {
      cwd: store,
    });
    expect(stdout.trim()).toBe("no changes");
  });
});

async function track(opening: Promise<Database>): Promise<Database> {
  const db = await opening;
  onTestFinished(() => db.close());
  return db;
}

async function migrationNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "sr-migrations-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await cp(defaultMigrationsDir, dir, { recursive: true });
  return dir;
}

async function existingTables(db: Database, names: string[]): Promise<string[]> {
  const rows = await db.withSession((s) =>
    s.query<{ name: string }>(
      "SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(quote_ident(name)) IS NOT NULL",
      [names],
    ),
  );
  return rows.map((row) => row.name);
}

async function recordCount(db: Database): Promise<number> {
  const [row] = await db.withSession((s) =>
    s.query<{ count: number }>("SELECT count(*)::int AS count FROM _prisma_migrations"),
  );
  return row?.count ?? 0;
}

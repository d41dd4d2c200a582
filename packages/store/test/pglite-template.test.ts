import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { holdsDatabase, pgliteTemplateDir } from "../src/pglite-template.ts";

const storeDir = path.resolve(import.meta.dirname, "..");

/** `npm run db:template`, as `npm install` runs it (a no-op when the template is there). */
async function makeTemplate(): Promise<string> {
  const child = spawn("npm", ["run", "--silent", "db:template"], {
    cwd: storeDir,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  return out;
}

// What a registry's first start on a new PGlite directory opens: the install-time template.
describe("a new PGlite data directory", { timeout: 180_000 }, () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  beforeAll(async () => {
    expect(await makeTemplate()).toContain(await pgliteTemplateDir());
  }, 180_000);

  async function open(dataDir: string) {
    const db = await openDatabase({ dataDir });
    cleanup.push(() => db.close());
    return db;
  }

  it("is filled from the migrated template, and one that holds a database is left as it is", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "sr-template-"));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const db = await open(dataDir);
    expect(holdsDatabase(dataDir)).toBe(true);
    // Every migration is in the template already: initdb and the migrations did not run.
    expect(await migrate(db)).toEqual({ applied: [] });
    await db.withSession((session) =>
      session.exec("CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)"),
    );
    await db.close();
    cleanup.pop();

    const reopened = await open(dataDir);
    const rows = await reopened.withSession((session) =>
      session.query<{ id: number }>("SELECT id FROM kept"),
    );
    expect(rows).toEqual([{ id: 7 }]);
  });
});

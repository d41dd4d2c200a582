import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirInUseError } from "../src/data-dir-lock.ts";
import { openDatabase, type Database } from "../src/database.ts";

describe("a PGlite data directory", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "sr-lock-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  async function open(dataDir: string): Promise<Database> {
    const db = await openDatabase({ dataDir });
    cleanup.push(() => db.close());
    return db;
  }

  it("is refused to a second process while one has it, and free again once it is closed", async () => {
    const dataDir = await tempDir();
    // Another live process holds it (our parent stands in for it).
    await writeFile(path.join(dataDir, "registry.lock"), String(process.ppid));
    await expect(openDatabase({ dataDir })).rejects.toThrow(DataDirInUseError);
    await expect(openDatabase({ dataDir })).rejects.toThrow(`in use by process ${process.ppid}`);

    await rm(path.join(dataDir, "registry.lock"));
    const db = await open(dataDir);
    await db.close();
    cleanup.pop();
    const again = await open(dataDir);
    expect(await again.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("is taken over from a process that crashed", async () => {
    const dataDir = await tempDir();
    await writeFile(path.join(dataDir, "registry.lock"), "2147483646");
    const db = await open(dataDir);
    expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });
});

import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir } from "../src/data-dir-lock.ts";
import { openDatabase, type Database } from "../src/database.ts";
import { prismaOf } from "../src/testing.ts";

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
    expect(await prismaOf(again.prisma).$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("is taken over from a process that crashed", async () => {
    const dataDir = await tempDir();
    await writeFile(path.join(dataDir, "registry.lock"), "2147483646");
    const db = await open(dataDir);
    expect(await prismaOf(db.prisma).$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });

  it("is refused to a second taker in the same process, and taken over from a dead process with our pid", async () => {
    const dataDir = await tempDir();
    const release = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(`in use by process ${process.pid}`);
    await release();
    // What a crashed predecessor that had our pid left (a container restarts with the same pid).
    await writeFile(path.join(dataDir, "registry.lock"), `${process.pid} left-by-a-crash\n`);
    await (
      await lockDataDir(dataDir)
    )();
    expect(await readdir(dataDir)).toEqual([]);
  });

  // The claim's name is the lock file's name and a hash of the stale content (see data-dir-lock.ts).
  const claimFor = (dataDir: string, stale: string) =>
    path.join(
      dataDir,
      `registry.lock.takeover-${createHash("sha256").update(stale).digest("hex").slice(0, 16)}`,
    );

  it("is left to a live process taking a stale lock over, and taken over from one that crashed doing so", async () => {
    const dataDir = await tempDir();
    const stale = "2147483646 crashed-owner\n";
    await writeFile(path.join(dataDir, "registry.lock"), stale);
    await writeFile(claimFor(dataDir, stale), `${process.ppid} live-claimant\n`);
    await expect(lockDataDir(dataDir)).rejects.toThrow(`in use by process ${process.ppid}`);

    await writeFile(claimFor(dataDir, stale), "2147483645 crashed-claimant\n");
    const release = await lockDataDir(dataDir);
    expect(await readFile(path.join(dataDir, "registry.lock"), "utf8")).toMatch(
      new RegExp(`^${process.pid} `),
    );
    await release();
    expect(await readdir(dataDir)).toEqual([]);
  });
});

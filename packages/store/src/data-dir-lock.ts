import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** PGlite is PostgreSQL inside one process: two processes on one data directory would corrupt it. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `data directory ${dataDir} is in use by process ${pid}; give each registry its own ` +
        `REGISTRY_DATA_DIR, or use DATABASE_URL to share a PostgreSQL database`,
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * Takes the data directory for this process, or throws DataDirInUseError. A lock left by a
 * process that no longer runs (a crash) is taken over. Returns the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, "registry.lock");
  for (;;) {
    try {
      await writeFile(file, String(process.pid), { flag: "wx" });
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(await readFile(file, "utf8").catch(() => ""));
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
      throw new DataDirInUseError(dataDir, owner);
    }
    await rm(file, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

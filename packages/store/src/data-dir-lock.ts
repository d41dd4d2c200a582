import { createHash, randomUUID } from "node:crypto";
import { link, readFile, unlink, writeFile } from "node:fs/promises";
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
 * Lock files (and takeover claims) this process holds, by content. A lock naming our own pid is
 * ours only if it is here: a restarted container's registry often gets the pid its crashed
 * predecessor had, and must take that lock over rather than refuse itself.
 */
const heldHere = new Set<string>();

/**
 * Takes the data directory for this process, or throws DataDirInUseError. Returns the release
 * function.
 *
 * `registry.lock` holds "<pid> <random id>". It comes into being with its content complete and
 * only if absent (a hard link from a written temporary file), so of processes starting together
 * exactly one creates it and no one ever reads a half-written lock.
 *
 * A lock whose pid is not running (a crash) is stale. Deleting it and creating a new one is not
 * safe on its own: two processes may both judge it stale, the first deletes it and makes its own,
 * and the second then deletes the first one's fresh lock. So only the process that creates the
 * stale lock's takeover claim (`registry.lock.takeover-<hash of its content>`, also created
 * exclusively) may delete it, and only after reading it again: the content is unique to one lock
 * instance, so an unchanged content means no one else deleted or replaced it meanwhile. Then the
 * claimant competes for the free lock like everyone else; contenders that find a live claimant
 * lose. A claimant that crashed mid-takeover leaves a stale claim, taken over the same way.
 *
 * A pid is only as good as the pid namespace: processes in different containers sharing one
 * directory do not see each other, and a crashed owner's pid reused by another program makes the
 * lock look live (refused, never wrongly taken: the error names the pid, so an operator can check
 * it and delete the file).
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, "registry.lock");
  const mine = `${process.pid} ${randomUUID()}\n`;
  heldHere.add(mine); // before it can be seen, so that a second call in this process is refused
  try {
    for (;;) {
      if (await createExclusive(file, mine)) return () => release(file, mine);
      const owner = await readLock(file);
      if (owner === undefined) continue; // released since: try again
      if (isLive(owner)) throw new DataDirInUseError(dataDir, pidOf(owner));
      const claimant = await removeStale(file, owner);
      if (claimant !== undefined) throw new DataDirInUseError(dataDir, pidOf(claimant));
    }
  } catch (error) {
    heldHere.delete(mine);
    throw error;
  }
}

/** Deletes `file` if it still holds `stale`, unless another live process is doing so (returned). */
async function removeStale(file: string, stale: string): Promise<string | undefined> {
  const claim = `${file}.takeover-${createHash("sha256").update(stale).digest("hex").slice(0, 16)}`;
  const me = `${process.pid} ${randomUUID()}\n`;
  heldHere.add(me);
  try {
    if (!(await createExclusive(claim, me))) {
      const claimant = await readLock(claim);
      if (claimant === undefined) return undefined;
      return isLive(claimant) ? claimant : await removeStale(claim, claimant);
    }
    try {
      // Only a claimant deletes a stale lock, and we hold its claim: it cannot change between
      // this read and the unlink. Once it is gone, later claimants read something else.
      if ((await readLock(file)) === stale) await unlink(file);
    } finally {
      await unlink(claim).catch(ignoreMissing);
    }
    return undefined;
  } finally {
    heldHere.delete(me);
  }
}

async function release(file: string, mine: string): Promise<void> {
  if ((await readLock(file)) === mine) await unlink(file).catch(ignoreMissing);
  heldHere.delete(mine);
}

/** Creates `file` with `content` if it does not exist; false if it does. */
async function createExclusive(file: string, content: string): Promise<boolean> {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temp, content, { flag: "wx" });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temp).catch(ignoreMissing);
  }
}

async function readLock(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    ignoreMissing(error);
    return undefined;
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}

const pidOf = (content: string) => Number.parseInt(content, 10);

/** Garbage or an empty file (a crash of an older version mid-write) names no live process. */
function isLive(content: string): boolean {
  const pid = pidOf(content);
  if (!(pid > 0)) return false;
  return pid === process.pid ? heldHere.has(content) : isRunning(pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

import { open, readFile, rm, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A cross-process lock on a file created with O_EXCL: parallel Vitest workers use it so that only
 * one of them fetches jars or starts the shared clusters. A lock whose holder died is taken over.
 */
export async function withFileLock<T>(path: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (await holderIsDead(path)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`Timed out after ${timeoutMs} ms waiting for the lock ${path}`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

async function holderIsDead(path: string): Promise<boolean> {
  const pid = Number(await readFile(path, "utf8").catch(() => ""));
  if (Number.isInteger(pid) && pid > 0) return !isAlive(pid);
  // An empty file is a lock being written right now, unless its holder died in between.
  const written = await stat(path).catch(() => undefined);
  return written !== undefined && Date.now() - written.mtimeMs > 10_000;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

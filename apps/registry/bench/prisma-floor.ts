import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate, openDatabase } from "@stream-registry/store";

/**
 * The floor a registry write is measured against: single-row stream inserts straight through the
 * project's own Prisma client, `count` of them from `clients` concurrent loops, on a fresh database
 * of the same kind (a temporary PGlite directory, or the given PostgreSQL URL). Streams per second.
 */
export async function prismaInsertRate(
  url: string | undefined,
  count: number,
  clients: number,
): Promise<number> {
  const dataDir = url ? undefined : await mkdtemp(path.join(tmpdir(), "sr-floor-"));
  const db = await openDatabase({ url, dataDir, poolSize: Math.max(10, clients) });
  try {
    await migrate(db);
    const prefix = `floor_${clients}_${Date.now()}`;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < count; i = next++) {
          await db.prisma.stream.create({ data: { name: `${prefix}_${i}` } });
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  } finally {
    await db.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

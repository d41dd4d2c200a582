import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate, openDatabase, type Database } from "@stream-registry/store";
import { prismaOf } from "@stream-registry/store/testing";

/**
 * The floor a registry write is measured against: single-row stream inserts straight through the
 * project's own Prisma client, `count` of them from `clients` concurrent loops, on a fresh database
 * of the same kind (a temporary PGlite directory, or the given PostgreSQL URL). Streams per second,
 * and each insert's milliseconds: how much longer one takes with `clients` at once is the floor
 * of a registry write's latency ratio on the same machine.
 */
export async function prismaInsertRate(
  url: string | undefined,
  count: number,
  clients: number,
): Promise<{ perSecond: number; latencies: number[] }> {
  const dataDir = url ? undefined : await mkdtemp(path.join(tmpdir(), "sr-floor-"));
  const db = await openDatabase({ url, dataDir, poolSize: Math.max(10, clients) });
  try {
    await migrate(db);
    const prefix = `floor_${clients}_${Date.now()}`;
    let next = 0;
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < count; i = next++) {
          const insertStarted = performance.now();
          await prismaOf(db.prisma).stream.create({ data: { name: `${prefix}_${i}` } });
          latencies.push(performance.now() - insertStarted);
        }
      }),
    );
    return { perSecond: count / ((performance.now() - started) / 1000), latencies };
  } finally {
    await db.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The floor a page of streams is measured against: the same pages (streams by name, each with its
 * bindings and their clusters) read straight through Prisma from the registry's own database,
 * after the registry stopped, once to warm up and once measured. Milliseconds per page.
 */
export async function prismaPageLatencies(
  url: string | undefined,
  dataDir: string | undefined,
  pageSize: number,
): Promise<number[]> {
  const db = await openDatabase({ url, dataDir });
  try {
    await readAllPages(db, pageSize); // warm-up: a fresh client's first queries pay for connecting
    return await readAllPages(db, pageSize);
  } finally {
    await db.close();
  }
}

async function readAllPages(db: Database, pageSize: number): Promise<number[]> {
  const latencies: number[] = [];
  let after: string | undefined;
  for (;;) {
    const started = performance.now();
    const page = await prismaOf(db.prisma).stream.findMany({
      where: after === undefined ? {} : { name: { gt: after } },
      orderBy: { name: "asc" },
      take: pageSize,
      include: { bindings: { orderBy: { createdAt: "asc" }, include: { cluster: true } } },
    });
    latencies.push(performance.now() - started);
    if (page.length < pageSize) return latencies;
    after = page.at(-1)!.name;
  }
}

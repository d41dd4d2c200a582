import type { Prisma, PrismaClient } from "./generated/prisma/client.ts";

/** The client handed to `prisma.$transaction(async (tx) => ...)`. */
export type Tx = Prisma.TransactionClient;

/** Arbitrary constant; Prisma Migrate's own advisory lock is 72707369. */
const WRITE_LOCK = 72707370;

/**
 * Runs `fn` as the only writer of metadata: every transaction that changes desired or observed
 * state takes this lock first. Two things follow. The change log's sequence numbers are handed
 * out in commit order, so a reader paging with `changes(after:)` never skips an entry that
 * commits late. And read-then-write logic inside `fn` cannot race another writer (no write
 * skew), without row locks that could deadlock. Writes keep to a few statements (set-based
 * where they touch many rows), so one writer at a time costs little (docs/benchmarks.md).
 */
export function writeTransaction<T>(prisma: PrismaClient, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;
      return fn(tx);
    },
    // Waiting for the lock counts against Prisma's 5 s default; a queue of writers needs longer.
    { maxWait: 10_000, timeout: 60_000 },
  );
}

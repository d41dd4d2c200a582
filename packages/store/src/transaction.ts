import { isWriteConflict } from "./db-errors.ts";
import type { DbClient, Tx } from "./db.ts";
import { openClient, txHandle } from "./open-db.ts";

export type { Tx } from "./db.ts";

/** A deadlock or serialization failure is retried this many times before it is thrown. */
const CONFLICT_ATTEMPTS = 5;

/**
 * Runs `fn` as one metadata write (READ COMMITTED), in parallel with other writers: nothing
 * global is locked. What one writer at a time used to give holds by other means
 * (docs/architecture.md, "Writers in parallel"): the change log is numbered in commit order by its
 * readers (change-log-reads.ts), and each read-then-write rule locks the rows it reads
 * (row-locks.ts) or writes conditionally (`WHERE generation = ...`). Rows are locked in one order
 * (clusters, streams, then bindings by id), so writers do not deadlock; should the database still
 * report a deadlock or a serialization failure, the whole of `fn` runs again, which it may, since
 * it only talks to the database.
 */
export async function writeTransaction<T>(db: DbClient, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const prisma = openClient(db);
  for (let attempt = 1; ; attempt++) {
    try {
      // Waiting for row locks counts against Prisma's 5 s default; a hot row may queue writers longer.
      return await prisma.$transaction((tx) => fn(txHandle(tx)), { maxWait: 10_000, timeout: 60_000 });
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isWriteConflict(error)) throw error;
    }
  }
}

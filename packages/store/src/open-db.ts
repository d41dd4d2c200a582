import type { Prisma, PrismaClient } from "./generated/prisma/client.ts";
import type { Db, DbClient, Tx } from "./db.ts";

// Store's own: the handles of db.ts are the Prisma client and transaction, typed opaquely for
// everyone else. This module is not exported from index.ts, so only store opens them.

/** The Prisma client or transaction behind a handle. */
export function open(db: Db): PrismaClient | Prisma.TransactionClient {
  return db as unknown as PrismaClient | Prisma.TransactionClient;
}

/** The Prisma client behind the client handle (what opens transactions). */
export function openClient(db: DbClient): PrismaClient {
  return db as unknown as PrismaClient;
}

/** The handle store gives out for its Prisma client. */
export function clientHandle(prisma: PrismaClient): DbClient {
  return prisma as unknown as DbClient;
}

/** The handle store gives out for a Prisma transaction. */
export function txHandle(tx: Prisma.TransactionClient): Tx {
  return tx as unknown as Tx;
}

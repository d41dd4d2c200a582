import type { Prisma, PrismaClient } from "./generated/prisma/client.ts";
import type { DbClient, Tx } from "./db.ts";

// Tests only (the package's "./testing" export, which src outside store may not import:
// eslint.config.js): a test sets up and inspects rows as no store function does.

/** The Prisma client or transaction behind a store handle. */
export function prismaOf(db: DbClient): PrismaClient;
export function prismaOf(db: Tx): Prisma.TransactionClient;
export function prismaOf(db: DbClient | Tx): PrismaClient | Prisma.TransactionClient;
export function prismaOf(db: DbClient | Tx): PrismaClient | Prisma.TransactionClient {
  return db as unknown as PrismaClient;
}

/** `fn` in one Prisma transaction, as a store handle: what `writeTransaction` runs, without its retries. */
export async function inTransaction<T>(db: DbClient, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return prismaOf(db).$transaction((tx) => fn(tx as unknown as Tx));
}

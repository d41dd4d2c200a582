import type { PrismaClient } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";

/**
 * The database client (`Database.prisma`): what code outside store hands to store functions that
 * open their own transaction. Outside store it is an opaque handle; only store calls it.
 */
export type DbClient = PrismaClient;

/** What a store reads or writes through: the client, or the transaction a write runs in. */
export type Db = DbClient | Tx;

/** Whether the database answers at all (readiness): rejects with the database's error if not. */
export async function pingDatabase(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRaw`SELECT 1`;
}

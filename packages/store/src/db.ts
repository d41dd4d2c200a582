import type { PrismaClient } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";

/** What a store reads or writes through: the client, or the transaction a write runs in. */
export type Db = PrismaClient | Tx;

/** Whether the database answers at all (readiness): rejects with the database's error if not. */
export async function pingDatabase(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRaw`SELECT 1`;
}

import type { Prisma } from "./generated/prisma/client.ts";

/** The client handed to `prisma.$transaction(async (tx) => ...)`. */
export type Tx = Prisma.TransactionClient;

export * from "./change-log.ts";
export * from "./database.ts";
export * from "./db-errors.ts";
export * from "./job-queue.ts";
export * from "./migrate.ts";
export * from "./migration-errors.ts";
export * from "./transaction.ts";
export { Prisma, PrismaClient } from "./generated/prisma/client.ts";
export type { Binding, Change, Cluster, Job, Stream } from "./generated/prisma/client.ts";

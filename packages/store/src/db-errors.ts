import { Prisma } from "./generated/prisma/client.ts";

/**
 * True when a write failed on a unique constraint. Prisma reports P2002 through the pg adapter;
 * the PGlite adapter (built on an older adapter API) passes PostgreSQL's own code, 23505.
 */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2002" || error.code === "23505");
}

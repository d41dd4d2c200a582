import { Prisma } from "./generated/prisma/client.ts";

/** True when a write failed on a unique constraint (Prisma's P2002, on both adapters). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

import { Prisma } from "@stream-registry/store";

/** True when a write failed on a unique constraint (Prisma's P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

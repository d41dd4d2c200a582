import type { UserError } from "@stream-registry/core";
import { asUserErrors } from "../services/user-errors.ts";

/**
 * Runs a mutation's work: expected failures become the payload's `userErrors` (nothing changed),
 * faults propagate as GraphQL errors.
 */
export async function payload<T extends object>(
  work: () => Promise<T>,
): Promise<(T & { userErrors: UserError[] }) | { userErrors: UserError[] }> {
  try {
    return { ...(await work()), userErrors: [] };
  } catch (error) {
    const userErrors = asUserErrors(error);
    if (userErrors) return { userErrors };
    throw error;
  }
}

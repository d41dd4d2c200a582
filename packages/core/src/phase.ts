import { ErrorCode, RegistryError } from "./errors.ts";

/**
 * Where an object stands between what was asked for (desired) and what the
 * stream provider has realized.
 *
 *   current \ event | desired-changed | realized | failed   | vanished | delete-requested
 *   ----------------+-----------------+----------+----------+----------+-----------------
 *   PENDING         | PENDING         | ONLINE   | FAILED   | PENDING  | DELETING
 *   ONLINE          | PENDING         | ONLINE   | FAILED   | PENDING  | DELETING
 *   FAILED          | PENDING         | ONLINE   | FAILED   | PENDING  | DELETING
 *   DELETING        | BEING_DELETED   | DELETING | DELETING | DELETING | DELETING
 *
 *   PENDING --realized--> ONLINE --failed--> FAILED --realized--> ONLINE
 *   {PENDING, ONLINE, FAILED} --desired-changed--> PENDING
 *   ONLINE --vanished--> PENDING  (the realized resource is gone from the platform: make it again)
 *   any --delete-requested--> DELETING  (left only by removing the row)
 *
 * DELETING is a sink: a provider result that started before the delete must
 * not resurrect the object, a failed delete is retried rather than abandoned,
 * and edits are refused (BEING_DELETED) because they would race the teardown.
 * "failed" means a permanent provider error; transient ones are retried with
 * backoff and never reach this machine.
 */
export const Phase = {
  PENDING: "PENDING",
  ONLINE: "ONLINE",
  FAILED: "FAILED",
  DELETING: "DELETING",
} as const;
// A union of string literals, not a TS enum: the database's enum (Prisma) and the API's
// (graphql-codegen) have this same shape, so rows and resolvers need no casts, and store's
// tests check that the database enum equals this one.
export type Phase = (typeof Phase)[keyof typeof Phase];

export type PhaseEvent = "desired-changed" | "realized" | "failed" | "vanished" | "delete-requested";

export function nextPhase(current: Phase, event: PhaseEvent): Phase {
  if (current === Phase.DELETING) {
    if (event === "desired-changed") {
      throw new RegistryError(
        ErrorCode.BEING_DELETED,
        "the object is being deleted; it cannot be changed until the deletion finishes",
      );
    }
    return Phase.DELETING;
  }
  switch (event) {
    case "desired-changed":
    case "vanished":
      return Phase.PENDING;
    case "realized":
      return Phase.ONLINE;
    case "failed":
      return Phase.FAILED;
    case "delete-requested":
      return Phase.DELETING;
  }
}

import { ErrorCode, RegistryError } from "./errors.ts";

/**
 * Where an object stands between what was asked for (desired) and what the
 * stream provider has realized.
 *
 *   current \ event | desired-changed | realized | failed   | delete-requested
 *   ----------------+-----------------+----------+----------+-----------------
 *   PENDING         | PENDING         | ONLINE   | FAILED   | DELETING
 *   ONLINE          | PENDING         | ONLINE   | FAILED   | DELETING
 *   FAILED          | PENDING         | ONLINE   | FAILED   | DELETING
 *   DELETING        | BEING_DELETED   | DELETING | DELETING | DELETING
 *
 *   PENDING --realized--> ONLINE --failed--> FAILED --realized--> ONLINE
 *   {PENDING, ONLINE, FAILED} --desired-changed--> PENDING
 *   any --delete-requested--> DELETING  (left only by removing the row)
 *
 * DELETING is a sink: a provider result that started before the delete must
 * not resurrect the object, a failed delete is retried rather than abandoned,
 * and edits are refused (BEING_DELETED) because they would race the teardown.
 * "failed" means a permanent provider error; transient ones are retried with
 * backoff and never reach this machine.
 */
export enum Phase {
  PENDING = "PENDING",
  ONLINE = "ONLINE",
  FAILED = "FAILED",
  DELETING = "DELETING",
}

export type PhaseEvent = "desired-changed" | "realized" | "failed" | "delete-requested";

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
      return Phase.PENDING;
    case "realized":
      return Phase.ONLINE;
    case "failed":
      return Phase.FAILED;
    case "delete-requested":
      return Phase.DELETING;
  }
}

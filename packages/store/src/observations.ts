import type { BindingObservation } from "@stream-registry/core";
import { BINDING_RESOURCE } from "./binding-status.ts";
import type { Db } from "./db.ts";
import { saveResourceObservation, type ObservationReport } from "./resource-observations.ts";
import { open } from "./open-db.ts";

/** Stores what the provider saw of a binding at `observedAt`, unless a newer observation is stored. */
export function saveObservation(
  db: Db,
  bindingId: string,
  observation: ObservationReport,
  observedAt: Date = new Date(),
): Promise<void> {
  return saveResourceObservation(db, BINDING_RESOURCE, bindingId, observation, observedAt);
}

/** The stored observation of each of `bindingIds` that has one. */
export async function findObservations(
  db: Db,
  bindingIds: readonly string[],
): Promise<(BindingObservation & { bindingId: string })[]> {
  return open(db).bindingObservation.findMany({ where: { bindingId: { in: [...bindingIds] } } });
}

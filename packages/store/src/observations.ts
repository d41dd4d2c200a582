import type { BindingObservation } from "@stream-registry/core";
import type { Db } from "./db.ts";
import type { Tx } from "./transaction.ts";

/** What a provider reports of a binding (provider-api's BindingObservation). */
export interface ObservationReport {
  message?: string | null | undefined;
  details?: unknown;
}

/**
 * Stores what the provider saw of a binding at `observedAt`, unless a newer observation is stored
 * already: a resync that started before a reconcile finished must not overwrite what that
 * reconcile saw. Not under the write lock and not in the change log: it is an observation.
 */
export async function saveObservation(
  db: Db,
  bindingId: string,
  observation: ObservationReport,
  observedAt: Date = new Date(),
): Promise<void> {
  const details = JSON.stringify(observation.details ?? {});
  await db.$executeRaw`
    INSERT INTO binding_observation (binding_id, message, details, observed_at)
    VALUES (${bindingId}::uuid, ${observation.message ?? null}, ${details}::jsonb, ${observedAt})
    ON CONFLICT (binding_id) DO UPDATE
      SET message = EXCLUDED.message, details = EXCLUDED.details, observed_at = EXCLUDED.observed_at
      WHERE binding_observation.observed_at < EXCLUDED.observed_at`;
}

/** Forgets what was seen of a binding: its resource is gone. */
export async function deleteObservation(tx: Tx, bindingId: string): Promise<void> {
  await tx.bindingObservation.deleteMany({ where: { bindingId } });
}

/** The stored observation of each of `bindingIds` that has one. */
export async function findObservations(
  db: Db,
  bindingIds: readonly string[],
): Promise<(BindingObservation & { bindingId: string })[]> {
  return db.bindingObservation.findMany({ where: { bindingId: { in: [...bindingIds] } } });
}

import type { BindingObservation } from "@stream-registry/provider-api";
import type { PrismaClient, Tx } from "@stream-registry/store";

/**
 * Stores what the provider saw of a binding at `observedAt`, unless a newer observation is stored
 * already: a resync that started before a reconcile finished must not overwrite what that
 * reconcile saw.
 */
export async function saveObservation(
  db: Tx | PrismaClient,
  bindingId: string,
  observation: BindingObservation,
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

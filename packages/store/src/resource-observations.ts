import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { ResourceTable } from "./resource-table.ts";
import { open } from "./open-db.ts";

/** What a provider reports of a resource it realized (provider-api's BindingObservation, for bindings). */
export interface ObservationReport {
  message?: string | null | undefined;
  details?: unknown;
}

/**
 * Stores what the provider saw of a resource at `observedAt`, unless a newer observation is stored
 * already: a resync that started before a reconcile finished must not overwrite what that
 * reconcile saw. Not in a write transaction and not in the change log: it is an observation.
 */
export async function saveResourceObservation(
  db: Db,
  resource: ResourceTable,
  id: string,
  observation: ObservationReport,
  observedAt: Date = new Date(),
): Promise<void> {
  await open(db).$executeRaw`${observationUpsert(resource, id, observation, observedAt)}`;
}

/** saveResourceObservation's statement, not run: for a statement that also writes the status. */
export function observationUpsert(
  resource: ResourceTable,
  id: string,
  observation: ObservationReport,
  observedAt: Date = new Date(),
): Prisma.Sql {
  const { observations: table, observationKey: key } = resource;
  const details = JSON.stringify(observation.details ?? {});
  return Prisma.sql`
    INSERT INTO ${table} (${key}, message, details, observed_at)
    VALUES (${id}::uuid, ${observation.message ?? null}, ${details}::jsonb, ${observedAt})
    ON CONFLICT (${key}) DO UPDATE
      SET message = EXCLUDED.message, details = EXCLUDED.details, observed_at = EXCLUDED.observed_at
      WHERE ${table}.observed_at < EXCLUDED.observed_at`;
}

/** Forgets what was seen of a resource: it is gone. */
export async function deleteResourceObservation(db: Db, resource: ResourceTable, id: string): Promise<void> {
  await open(db)
    .$executeRaw`DELETE FROM ${resource.observations} WHERE ${resource.observationKey} = ${id}::uuid`;
}

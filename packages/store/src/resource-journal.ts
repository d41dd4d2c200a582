import type { PendingCreate } from "@stream-registry/core";
import type { Db } from "./db.ts";
import type { ResourceTable } from "./resource-table.ts";
import { open } from "./open-db.ts";

/**
 * Journals the create about to be sent for the generation `at` read. False, appending nothing, if
 * the desired state moved meanwhile (or a generation was realized): the attempt is superseded.
 * An unknown (NULL) journal stays unknown: what was sent before it existed cannot be told.
 */
export async function appendPendingCreate(
  db: Db,
  resource: ResourceTable,
  at: { id: string; generation: number },
  entry: PendingCreate,
): Promise<boolean> {
  const appended = await open(db).$executeRaw`
    UPDATE ${resource.table}
      SET pending_creates = pending_creates || jsonb_build_array(${JSON.stringify(entry)}::jsonb)
      WHERE id = ${at.id}::uuid AND generation = ${at.generation} AND observed_generation IS NULL`;
  return appended > 0;
}

/** Takes creates known to have made nothing out of the journal, keeping the others in order. */
export async function forgetPendingCreates(
  db: Db,
  resource: ResourceTable,
  id: string,
  generations: number[],
): Promise<void> {
  await open(db).$executeRaw`
    UPDATE ${resource.table}
      SET pending_creates = (
        SELECT COALESCE(jsonb_agg(entry ORDER BY position), '[]'::jsonb)
          FROM jsonb_array_elements(pending_creates) WITH ORDINALITY AS journal(entry, position)
          WHERE NOT ((entry->>'generation')::int = ANY(${generations}::int[])))
      WHERE id = ${id}::uuid AND pending_creates IS NOT NULL`;
}

/**
 * The resource on the platform is what the journaled create of `generation` made: that generation
 * counts as realized (so the next step updates it) and the journal is done with. Only while no
 * generation is recorded as realized.
 */
export async function adoptPendingCreate(
  db: Db,
  resource: ResourceTable,
  id: string,
  generation: number,
): Promise<void> {
  await open(db).$executeRaw`
    UPDATE ${resource.table} SET observed_generation = ${generation}::int, pending_creates = '[]'::jsonb
      WHERE id = ${id}::uuid AND observed_generation IS NULL`;
}

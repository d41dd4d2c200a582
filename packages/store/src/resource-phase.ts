import { nextPhase, type Phase } from "@stream-registry/core";
import type { PhaseTarget, PhaseTransition } from "./binding-phase.ts";
import type { Db } from "./db.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { ResourceTable } from "./resource-table.ts";
import { open } from "./open-db.ts";

/** What the reconciler writes beside a phase, in the status block. */
export interface StatusFields {
  message?: string | null;
  observedGeneration?: number | null;
  /** Empties the create journal: a generation was realized, or nothing is realized any more. */
  clearJournal?: boolean;
}

/**
 * The only way the reconciler writes the phase of a resource of any kind (writeBindingPhase is the
 * other writer, for a binding's desired state; a test scans for any third): the new phase is what
 * core's `nextPhase` gives. Skipped, `written: false`, when the row no longer matches `target`.
 */
export async function writeResourcePhase(
  db: Db,
  resource: ResourceTable,
  target: PhaseTarget,
  transition: PhaseTransition,
  fields: StatusFields = {},
): Promise<{ phase: Phase; written: boolean }> {
  const { phase, sql } = resourcePhaseUpdate(resource, target, transition, fields);
  const count = await open(db).$executeRaw`${sql}`;
  return { phase, written: count > 0 };
}

/**
 * writeResourcePhase's UPDATE, not run: for a statement that writes the phase together with what
 * goes with it (a data-modifying WITH). It returns the id of the row it wrote, if it wrote one.
 */
export function resourcePhaseUpdate(
  resource: ResourceTable,
  target: PhaseTarget,
  transition: PhaseTransition,
  fields: StatusFields = {},
): { phase: Phase; sql: Prisma.Sql } {
  const phase = nextPhase(transition.from, transition.event);
  const sets = [Prisma.sql`phase = ${phase}::"Phase"`, Prisma.sql`status_updated_at = ${new Date()}`];
  if (fields.message !== undefined) sets.push(Prisma.sql`message = ${fields.message}`);
  if (fields.observedGeneration !== undefined)
    sets.push(Prisma.sql`observed_generation = ${fields.observedGeneration}::int`);
  if (fields.clearJournal) sets.push(Prisma.sql`pending_creates = '[]'::jsonb`);
  const where = [Prisma.sql`id = ${target.id}::uuid`];
  if (target.generation !== undefined) where.push(Prisma.sql`generation = ${target.generation}`);
  if (typeof target.phase === "string") where.push(Prisma.sql`phase = ${target.phase}::"Phase"`);
  else if (target.phase) where.push(Prisma.sql`phase <> ${target.phase.not}::"Phase"`);
  return {
    phase,
    sql: Prisma.sql`
      UPDATE ${resource.table} SET ${Prisma.join(sets, ", ")} WHERE ${Prisma.join(where, " AND ")} RETURNING id`,
  };
}

import { Prisma } from "./generated/prisma/client.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

export interface ChangeRecord {
  /** "cluster", "stream", or a realized resource's kind ("binding", ...). */
  entityType: string;
  entityKey: string;
  action:
    | "created"
    | "updated"
    | "deleted"
    | "delete-requested"
    | "status"
    | "became-default"
    | "dropped"
    | "revoked"
    | "suspended"
    | "resumed";
  generation: number;
  actor: string;
  /** Stored as JSON. */
  data?: unknown;
  /** Of a namespace below this registry's: its path below (an entry of the discovery index). */
  below?: string;
}

/**
 * The INSERT of one change-log entry, for a statement that makes a change and logs it at once (a
 * data-modifying WITH): `from` (e.g. `FROM written`) logs it only if that part wrote a row. `at`
 * is the registry's clock, as for the rows Prisma writes.
 */
export function changeInsertSql(change: ChangeRecord, from: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO change (entity_type, entity_key, action, generation, actor, at, data, namespace_below)
    SELECT ${change.entityType}, ${change.entityKey}, ${change.action}, ${change.generation}::int,
      ${change.actor}, ${new Date()}, ${JSON.stringify(change.data ?? {})}::jsonb,
      ${change.below ?? null} ${from}`;
}

/** Appends to the ordered change log; always inside the transaction that made the change. */
export async function recordChange(tx: Tx, change: ChangeRecord): Promise<void> {
  await open(tx).$executeRaw`${changeInsertSql(change)}`;
}

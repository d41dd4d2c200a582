import { randomUUID } from "node:crypto";
import { namespacePath } from "@stream-registry/core";
import type { Db } from "./db.ts";
import { recordChange } from "./change-log.ts";
import type { Tx } from "./transaction.ts";

/** This registry's identity as stored: its id, and its namespace segment (null: the root). */
export interface RegistrySettings {
  registryId: string;
  name: string | null;
  generation: number;
}

const COLUMNS = `registry_id::text AS "registryId", name, generation`;

/** The registry's settings, made at its first start (a new registry id, no name: the root). */
export async function openRegistrySettings(db: Db): Promise<RegistrySettings> {
  for (;;) {
    // Inserted or read in one statement. Only a process that made it at the same moment as another
    // finds neither (the other's row committed after this statement's snapshot); it reads again.
    const [row] = await db.$queryRawUnsafe<RegistrySettings[]>(
      `WITH made AS (
         INSERT INTO registry_settings (id, registry_id) VALUES (1, $1::uuid)
         ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS})
       SELECT * FROM made UNION ALL SELECT ${COLUMNS} FROM registry_settings WHERE id = 1 LIMIT 1`,
      randomUUID(),
    );
    if (row) return row;
  }
}

/** The registry's settings as they are now (made by `openRegistrySettings` at start-up). */
export async function readRegistrySettings(db: Db): Promise<RegistrySettings> {
  const [row] = await db.$queryRawUnsafe<RegistrySettings[]>(
    `SELECT ${COLUMNS} FROM registry_settings WHERE id = 1`,
  );
  return row!;
}

/**
 * Names this registry's namespace segment, with a change-log entry ("namespace", keyed by the new
 * path). Unchanged if it has that name already (DECLARE is idempotent): null, nothing written.
 */
export async function declareNamespaceName(
  tx: Tx,
  name: string,
  actor: string,
): Promise<RegistrySettings | null> {
  const [current] = await tx.$queryRawUnsafe<RegistrySettings[]>(
    `SELECT ${COLUMNS} FROM registry_settings WHERE id = 1 FOR UPDATE`,
  );
  if (current!.name === name) return null;
  const [updated] = await tx.$queryRawUnsafe<RegistrySettings[]>(
    `UPDATE registry_settings SET name = $1, generation = generation + 1, updated_at = $2
     WHERE id = 1 RETURNING ${COLUMNS}`,
    name,
    new Date(),
  );
  await recordChange(tx, {
    entityType: "namespace",
    entityKey: namespacePath(name),
    action: "updated",
    generation: updated!.generation,
    actor,
    data: { name, previousPath: namespacePath(current!.name) },
  });
  return updated!;
}

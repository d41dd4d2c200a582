import { randomUUID } from "node:crypto";
import { namespacePath } from "@stream-registry/core";
import type { Db } from "./db.ts";
import { recordChange } from "./change-log.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/**
 * This registry's identity as stored: its id, its namespace segment (null: the root), and what its
 * parent last said of itself (none: no parent, or not registered yet). `generation` grows with
 * every change of any of them.
 */
export interface RegistrySettings {
  registryId: string;
  name: string | null;
  generation: number;
  /** The parent's namespace path; null without a parent. */
  parentPath: string | null;
  /** The registry ids of this registry's ancestors, the root first (its parent last). */
  ancestors: string[];
}

/** The settings row with the live parent link's view of the parent (parent_link_one_live: one). */
const SELECT = `
  SELECT s.registry_id::text AS "registryId", s.name, s.generation, l.parent_path AS "parentPath",
    CASE WHEN l.parent_registry_id IS NULL THEN '[]'::jsonb
      ELSE l.ancestors || jsonb_build_array(l.parent_registry_id::text) END AS ancestors
  FROM registry_settings s LEFT JOIN parent_link l ON l.phase <> 'DELETING'
  WHERE s.id = 1`;

/** The registry's settings, made at its first start (a new registry id, no name: the root). */
export async function openRegistrySettings(db: Db): Promise<RegistrySettings> {
  // Two statements: an insert that meets another process's row not yet committed waits for it,
  // so the read that follows, with a snapshot of its own, sees whichever row was made.
  await open(db).$executeRawUnsafe(
    `INSERT INTO registry_settings (id, registry_id) VALUES (1, $1::uuid) ON CONFLICT (id) DO NOTHING`,
    randomUUID(),
  );
  return readRegistrySettings(db);
}

/** The registry's settings as they are now (made by `openRegistrySettings` at start-up). */
export async function readRegistrySettings(db: Db): Promise<RegistrySettings> {
  const [row] = await open(db).$queryRawUnsafe<RegistrySettings[]>(SELECT);
  return row!;
}

/** The path of the namespace that `settings` give this registry. */
export function pathOf(settings: Pick<RegistrySettings, "name" | "parentPath">): string {
  return namespacePath(settings.name, settings.parentPath ?? undefined);
}

/**
 * Locks the settings row for a change of this registry's identity (its name or its parent), so
 * that two declarations are applied one after the other; returns the settings as they are.
 */
export async function lockRegistrySettings(tx: Tx): Promise<RegistrySettings> {
  await open(tx).$executeRawUnsafe(`SELECT 1 FROM registry_settings WHERE id = 1 FOR UPDATE`);
  return readRegistrySettings(tx);
}

/**
 * After a change of this registry's name or parent, in the transaction that made it (holding
 * `lockRegistrySettings`): a new settings generation, and a change-log entry ("namespace", keyed by
 * the new path) if the path changed. Returns the settings as they are now.
 */
export async function settingsChanged(
  tx: Tx,
  before: RegistrySettings,
  actor: string,
): Promise<RegistrySettings> {
  await open(tx).$executeRawUnsafe(
    `UPDATE registry_settings SET generation = generation + 1, updated_at = $1 WHERE id = 1`,
    new Date(),
  );
  const after = await readRegistrySettings(tx);
  const [from, to] = [pathOf(before), pathOf(after)];
  if (from !== to) {
    await recordChange(tx, {
      entityType: "namespace",
      entityKey: to,
      action: "updated",
      generation: after.generation,
      actor,
      data: { name: after.name, previousPath: from },
    });
  }
  return after;
}

/**
 * Names this registry's namespace segment. Unchanged if it has that name already (DECLARE is
 * idempotent): null, nothing written.
 */
export async function declareNamespaceName(
  tx: Tx,
  name: string,
  actor: string,
): Promise<RegistrySettings | null> {
  const current = await lockRegistrySettings(tx);
  if (current.name === name) return null;
  await open(tx).$executeRawUnsafe(`UPDATE registry_settings SET name = $1 WHERE id = 1`, name);
  return settingsChanged(tx, current, actor);
}

import type { CompatibilityLevel, SchemaMode } from "@stream-registry/core";
import { recordChange } from "../change-log.ts";
import type { Db } from "../db.ts";
import type { Tx } from "../transaction.ts";
import { open } from "../open-db.ts";

/** The subject of the registry's own (global) config row: no subject is named "". */
export const GLOBAL_SCHEMA_CONFIG = "";

/** What one subject (or the registry) has set; undefined: not set. */
export interface SchemaConfig {
  compatibility?: CompatibilityLevel;
  mode?: SchemaMode;
}

/** The config of `subject` and the global one, in one read. */
export async function readSchemaConfigs(
  db: Db,
  subject: string | undefined,
): Promise<{ subject: SchemaConfig; global: SchemaConfig }> {
  const keys = subject === undefined ? [GLOBAL_SCHEMA_CONFIG] : [GLOBAL_SCHEMA_CONFIG, subject];
  const rows = await open(db).schemaConfig.findMany({ where: { subject: { in: keys } } });
  const of = (key: string): SchemaConfig => {
    const row = rows.find((r) => r.subject === key);
    return {
      ...(row?.compatibility && { compatibility: row.compatibility }),
      ...(row?.mode && { mode: row.mode }),
    };
  };
  return { subject: subject === undefined ? {} : of(subject), global: of(GLOBAL_SCHEMA_CONFIG) };
}

/**
 * Sets (a value) or clears (null) the compatibility level or mode of `subject` (GLOBAL_SCHEMA_CONFIG:
 * the registry's), with a change-log entry ("schema_config", keyed by the subject). The row goes
 * when nothing is set in it any more.
 */
export async function writeSchemaConfig(
  tx: Tx,
  subject: string,
  change: { compatibility?: CompatibilityLevel | null; mode?: SchemaMode | null },
  actor: string,
): Promise<void> {
  const row = await open(tx).schemaConfig.upsert({
    where: { subject },
    create: { subject, ...change },
    update: change,
  });
  if (row.compatibility === null && row.mode === null)
    await open(tx).schemaConfig.delete({ where: { subject } });
  await recordChange(tx, {
    entityType: "schema_config",
    entityKey: subject,
    action: row.compatibility === null && row.mode === null ? "deleted" : "updated",
    generation: 1,
    actor,
    data: { compatibility: row.compatibility, mode: row.mode },
  });
}

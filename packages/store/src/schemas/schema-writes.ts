import type { SchemaDependency, SchemaType } from "@stream-registry/core";
import { recordChange } from "../change-log.ts";
import type { Tx } from "../transaction.ts";
import { open } from "../open-db.ts";

/** A schema about to be stored: its identity (`fingerprint`) is the caller's to compute. */
export interface NewSchema {
  schemaType: SchemaType;
  schema: string;
  canonical: string;
  fingerprint: string;
  references: SchemaDependency[];
  /** IMPORT mode: the id it had elsewhere. */
  id?: number;
}

/** Key space of the subject locks (pg_advisory_xact_lock(key, hashtext(subject))). */
const SUBJECT_LOCK = 72707372;

/**
 * Locks subjects for the rest of the transaction: the writes of one subject (a registration
 * reads its versions, checks compatibility and numbers the next) take turns. Taken in one order
 * (by hash) whatever the order given, so two writers never wait for each other in a circle.
 */
export async function lockSubjects(tx: Tx, subjects: readonly string[]): Promise<void> {
  await open(tx).$executeRaw`
    SELECT pg_advisory_xact_lock(${SUBJECT_LOCK}::int, h) FROM (
      SELECT DISTINCT hashtext(s) AS h FROM unnest(${[...subjects]}::text[]) AS s ORDER BY h) AS hashes`;
}

/**
 * The id of `schema`: the row with its fingerprint, else a new one (with its import id if given).
 * "id-taken" when an import's id is another schema's, or the schema has another id already.
 */
export async function storeSchema(tx: Tx, schema: NewSchema): Promise<number | "id-taken"> {
  const references = JSON.stringify(
    schema.references.map(({ name, subject, version }) => ({ name, subject, version })),
  );
  // A new id may meet one an import is taking at this moment: then it takes the next.
  for (let attempt = 1; ; attempt++) {
    const inserted = await open(tx).$queryRaw<{ id: number }[]>`
      INSERT INTO registered_schema (id, schema_type, schema, canonical, fingerprint, "references")
      VALUES (coalesce(${schema.id ?? null}::int, nextval('registered_schema_id_seq')::int),
        ${schema.schemaType}::"SchemaType", ${schema.schema}, ${schema.canonical}, ${schema.fingerprint},
        ${references}::jsonb)
      ON CONFLICT DO NOTHING RETURNING id`;
    if (inserted[0]) {
      if (schema.id !== undefined) await advanceSchemaIds(tx);
      return inserted[0].id;
    }
    // Taken: by the same schema (its fingerprint), or the id by another.
    const [existing] = await open(tx).$queryRaw<{ id: number }[]>`
      SELECT id FROM registered_schema WHERE fingerprint = ${schema.fingerprint}`;
    if (existing && (schema.id === undefined || existing.id === schema.id)) return existing.id;
    if (existing || schema.id !== undefined || attempt >= 5) return "id-taken";
  }
}

/** After an import: new ids start above the highest one. */
async function advanceSchemaIds(tx: Tx): Promise<void> {
  await open(tx).$executeRaw`
    SELECT setval(pg_get_serial_sequence('registered_schema', 'id'), m) FROM (
      SELECT max(id) AS m FROM registered_schema) AS highest
    WHERE m >= (SELECT last_value + CASE WHEN is_called THEN 1 ELSE 0 END FROM registered_schema_id_seq)`;
}

/** Adds `version` of `subject`, with its change-log entry ("subject", "created"). */
export async function insertSubjectVersion(
  tx: Tx,
  entry: { subject: string; version: number; schemaId: number; schemaType: SchemaType },
  actor: string,
): Promise<void> {
  await open(tx).subjectVersion.create({
    data: { subject: entry.subject, version: entry.version, schemaId: entry.schemaId },
  });
  await recordChange(tx, {
    entityType: "subject",
    entityKey: entry.subject,
    action: "created",
    generation: entry.version,
    actor,
    data: { version: entry.version, id: entry.schemaId, schemaType: entry.schemaType },
  });
}

/**
 * Soft-deletes (`permanent` false) or removes versions of `subject`, with one change-log entry
 * ("deleted", or "dropped" when permanent). A permanent delete also removes the schemas no
 * version holds any more: their ids are gone.
 */
export async function deleteSubjectVersions(
  tx: Tx,
  subject: string,
  versions: readonly number[],
  options: { permanent: boolean; actor: string },
): Promise<void> {
  if (versions.length === 0) return;
  const list = [...versions];
  if (options.permanent) {
    const removed = await open(tx).$queryRaw<{ schema_id: number }[]>`
      DELETE FROM subject_version WHERE subject = ${subject} AND version = ANY(${list}::int[])
      RETURNING schema_id`;
    const ids = [...new Set(removed.map((row) => row.schema_id))];
    await open(tx).$executeRaw`
      DELETE FROM registered_schema s WHERE s.id = ANY(${ids}::int[])
        AND NOT EXISTS (SELECT 1 FROM subject_version v WHERE v.schema_id = s.id)`;
  } else {
    await open(tx).subjectVersion.updateMany({
      where: { subject, version: { in: list } },
      data: { deleted: true },
    });
  }
  await recordChange(tx, {
    entityType: "subject",
    entityKey: subject,
    action: options.permanent ? "dropped" : "deleted",
    generation: Math.max(...list),
    actor: options.actor,
    data: { versions: list, permanent: options.permanent },
  });
}

import type { RegisteredSchema, SubjectVersion } from "@stream-registry/core";
import type { Db } from "../db.ts";
import { Prisma } from "../generated/prisma/client.ts";
import {
  SUBJECT_VERSION_COLUMNS,
  toRegisteredSchema,
  toSubjectVersion,
  type SchemaRow,
  type SubjectVersionRow,
} from "./schema-rows.ts";
import { open } from "../open-db.ts";

/** A subject version as Confluent names it elsewhere: `{ subject, version }`. */
export interface SubjectVersionKey {
  subject: string;
  version: number;
}

const live = (includeDeleted: boolean) => (includeDeleted ? Prisma.empty : Prisma.sql`AND NOT v.deleted`);

export async function findSchemaById(db: Db, id: number): Promise<RegisteredSchema | undefined> {
  const [row] = await open(db).$queryRaw<SchemaRow[]>`
    SELECT id, schema_type::text AS schema_type, schema, "references" FROM registered_schema WHERE id = ${id}`;
  return row && toRegisteredSchema(row);
}

/** Every version of `subject`, oldest first, soft-deleted ones too. */
export async function listSubjectVersions(db: Db, subject: string): Promise<SubjectVersion[]> {
  const rows = await open(db).$queryRaw<SubjectVersionRow[]>`
    SELECT ${SUBJECT_VERSION_COLUMNS} FROM subject_version v JOIN registered_schema s ON s.id = v.schema_id
    WHERE v.subject = ${subject} ORDER BY v.version`;
  return rows.map(toSubjectVersion);
}

/** The subjects with a live version (with `includeDeleted`, any version), by name. */
export async function listSubjects(
  db: Db,
  options: { includeDeleted: boolean; prefix?: string },
): Promise<string[]> {
  const prefix = options.prefix ? Prisma.sql`AND starts_with(v.subject, ${options.prefix})` : Prisma.empty;
  const rows = await open(db).$queryRaw<{ subject: string }[]>`
    SELECT DISTINCT v.subject FROM subject_version v
    WHERE true ${live(options.includeDeleted)} ${prefix} ORDER BY v.subject`;
  return rows.map((row) => row.subject);
}

/** Where the schema `id` is registered: its subject versions (with `includeDeleted`, soft-deleted too). */
export async function listSchemaUsages(
  db: Db,
  id: number,
  includeDeleted: boolean,
): Promise<SubjectVersionKey[]> {
  return open(db).$queryRaw<SubjectVersionKey[]>`
    SELECT v.subject, v.version FROM subject_version v
    WHERE v.schema_id = ${id} ${live(includeDeleted)} ORDER BY v.subject, v.version`;
}

/**
 * The subject versions whose schema references `version` of `subject` (with `includeDeleted`,
 * soft-deleted ones too), with their schema ids.
 */
export async function findReferrers(
  db: Db,
  target: SubjectVersionKey,
  includeDeleted: boolean,
): Promise<(SubjectVersionKey & { id: number })[]> {
  const probe = JSON.stringify([{ subject: target.subject, version: target.version }]);
  return open(db).$queryRaw<(SubjectVersionKey & { id: number })[]>`
    SELECT v.subject, v.version, s.id FROM registered_schema s JOIN subject_version v ON v.schema_id = s.id
    WHERE s."references" @> ${probe}::jsonb ${live(includeDeleted)} ORDER BY s.id, v.subject, v.version`;
}

/** One version of `subject` (soft-deleted or not). */
export async function findSubjectVersion(
  db: Db,
  subject: string,
  version: number,
): Promise<SubjectVersion | undefined> {
  const [row] = await open(db).$queryRaw<SubjectVersionRow[]>`
    SELECT ${SUBJECT_VERSION_COLUMNS} FROM subject_version v JOIN registered_schema s ON s.id = v.schema_id
    WHERE v.subject = ${subject} AND v.version = ${version}`;
  return row && toSubjectVersion(row);
}

/** The id of the schema with this identity, if it is registered. */
export async function findSchemaIdByFingerprint(db: Db, fingerprint: string): Promise<number | undefined> {
  const [row] = await open(db).$queryRaw<{ id: number }[]>`
    SELECT id FROM registered_schema WHERE fingerprint = ${fingerprint}`;
  return row?.id;
}

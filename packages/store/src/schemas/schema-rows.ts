import type { RegisteredSchema, SchemaDependency, SchemaType, SubjectVersion } from "@stream-registry/core";
import { Prisma } from "../generated/prisma/client.ts";

/** The columns a subject version is read with, joined to its schema (`v` and `s`). */
export const SUBJECT_VERSION_COLUMNS = Prisma.sql`v.subject, v.version, v.deleted, s.id,
  s.schema_type::text AS schema_type, s.schema, s.references`;

export interface SchemaRow {
  id: number;
  schema_type: SchemaType;
  schema: string;
  references: unknown;
}

export interface SubjectVersionRow extends SchemaRow {
  subject: string;
  version: number;
  deleted: boolean;
}

export function toRegisteredSchema(row: SchemaRow): RegisteredSchema {
  return {
    id: row.id,
    schemaType: row.schema_type,
    schema: row.schema,
    references: toDependencies(row.references),
  };
}

export function toSubjectVersion(row: SubjectVersionRow): SubjectVersion {
  return { subject: row.subject, version: row.version, deleted: row.deleted, ...toRegisteredSchema(row) };
}

/** The references column, as written by insertSchema: only these three keys, in this order. */
function toDependencies(value: unknown): SchemaDependency[] {
  if (!Array.isArray(value)) return [];
  return value.map((item: Record<string, unknown>) => ({
    name: String(item.name),
    subject: String(item.subject),
    version: Number(item.version),
  }));
}

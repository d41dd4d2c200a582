/**
 * The vocabulary of schema registries (issue 12), as Confluent's Schema Registry defines it: the
 * provider-api's SchemaManager, the built-in registry's store and its REST API share it.
 */

export const SCHEMA_TYPES = ["AVRO", "JSON", "PROTOBUF"] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];

/** Weakest first, as Confluent lists them. */
export const COMPATIBILITY_LEVELS = [
  "NONE",
  "BACKWARD",
  "BACKWARD_TRANSITIVE",
  "FORWARD",
  "FORWARD_TRANSITIVE",
  "FULL",
  "FULL_TRANSITIVE",
] as const;
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number];

/** A registry's (or one subject's) mode: IMPORT takes schemas with their ids, unchecked. */
export const SCHEMA_MODES = ["READWRITE", "READONLY", "IMPORT"] as const;
export type SchemaMode = (typeof SCHEMA_MODES)[number];

/** Confluent's defaults: what a registry without any config has. */
export const DEFAULT_COMPATIBILITY: CompatibilityLevel = "BACKWARD";
export const DEFAULT_SCHEMA_MODE: SchemaMode = "READWRITE";

/**
 * One schema a schema uses (Confluent's "schema reference"): imported by `name` (an Avro full
 * name, a JSON Schema `$ref` URL, a .proto import path), found as `version` of `subject`.
 */
export interface SchemaDependency {
  name: string;
  subject: string;
  version: number;
}

/** A schema as registered: one global id for each distinct schema, whichever subjects hold it. */
export interface RegisteredSchema {
  id: number;
  schemaType: SchemaType;
  /** The text as it was first registered. */
  schema: string;
  references: SchemaDependency[];
}

/** One version of a subject: a schema under a subject, soft-deleted or not. */
export interface SubjectVersion extends RegisteredSchema {
  subject: string;
  version: number;
  deleted: boolean;
}

export function isSchemaType(value: unknown): value is SchemaType {
  return (SCHEMA_TYPES as readonly unknown[]).includes(value);
}

export function isCompatibilityLevel(value: unknown): value is CompatibilityLevel {
  return (COMPATIBILITY_LEVELS as readonly unknown[]).includes(value);
}

export function isSchemaMode(value: unknown): value is SchemaMode {
  return (SCHEMA_MODES as readonly unknown[]).includes(value);
}

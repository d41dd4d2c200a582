// The registry's vocabulary lives in core (the provider API and the store share it); this package
// re-exports it so that its callers need one import.
export {
  COMPATIBILITY_LEVELS,
  SCHEMA_TYPES,
  isCompatibilityLevel,
  isSchemaType,
  type CompatibilityLevel,
  type SchemaType,
} from "@stream-registry/core";
import type { SchemaType } from "@stream-registry/core";

/**
 * A schema another one imports (Confluent "references"): `name` is how the importing schema names it
 * (an Avro full type name, a JSON `$ref` URL, a .proto import path); `schema` is its text, already
 * resolved by the caller, with its own references resolved recursively in `references`.
 */
export interface ResolvedReference {
  name: string;
  schemaType: SchemaType;
  schema: string;
  references: ResolvedReference[];
}

/**
 * A schema that parsed. `canonical` decides identity: two texts with the same canonical form are the
 * same schema (whitespace, key order and comments do not count; defaults, aliases, doc and the other
 * attributes Confluent keeps do). `fingerprint` is a hex SHA-256 of the type, the canonical form and
 * the references. `recordName` is the fully-qualified name RecordNameStrategy uses: an Avro named
 * type's full name, a JSON Schema's `title`, a .proto file's first message.
 */
export interface ParsedSchema {
  readonly type: SchemaType;
  readonly text: string;
  readonly canonical: string;
  readonly fingerprint: string;
  readonly recordName: string | undefined;
  readonly references: readonly ResolvedReference[];
}

/** Which way data flows in one check: BACKWARD = the new schema reads data written with an old one. */
export type CompatibilityDirection = "BACKWARD" | "FORWARD";

/** One rule a candidate breaks against one previous version. */
export interface CompatibilityIssue {
  /** The previous version it conflicts with. */
  readonly version: number;
  readonly direction: CompatibilityDirection;
  /** The rule's code, as Confluent names it (`READER_FIELD_MISSING_DEFAULT_VALUE`, `TYPE_CHANGED`, ...). */
  readonly rule: string;
  /** Where: a JSON pointer into the reader (Avro) or the schema (`#/properties/a`, `#/Msg/2`). */
  readonly path: string;
  readonly detail: string;
  /** `version 1: RULE at path: detail`. */
  readonly message: string;
}

export interface CompatibilityResult {
  compatible: boolean;
  messages: string[];
  issues: CompatibilityIssue[];
}

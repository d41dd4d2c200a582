import type { SchemaErrorReason } from "./errors.ts";

/**
 * The one table between SchemaManagerError reasons and Confluent Schema Registry's error codes,
 * read both ways: the built-in registry's REST API answers a refusal with its reason's code, and
 * a SchemaManager over an external registry gives a refusal with that code its reason. HTTP
 * status: the code's first three digits.
 */
export const CONFLUENT_ERROR_CODES: Readonly<Record<SchemaErrorReason, number>> = {
  SUBJECT_NOT_FOUND: 40401,
  VERSION_NOT_FOUND: 40402,
  SCHEMA_NOT_FOUND: 40403,
  SUBJECT_SOFT_DELETED: 40404,
  SUBJECT_NOT_SOFT_DELETED: 40405,
  VERSION_SOFT_DELETED: 40406,
  VERSION_NOT_SOFT_DELETED: 40407,
  COMPATIBILITY_NOT_CONFIGURED: 40408,
  MODE_NOT_CONFIGURED: 40409,
  INCOMPATIBLE: 409,
  INVALID_SCHEMA: 42201,
  INVALID_VERSION: 42202,
  INVALID_COMPATIBILITY: 42203,
  INVALID_MODE: 42204,
  OPERATION_NOT_PERMITTED: 42205,
  REFERENCE_EXISTS: 42206,
  INVALID_SUBJECT: 42208,
  SCHEMA_TOO_LARGE: 42209,
  INVALID_INPUT: 422,
};

const reasonsByCode: ReadonlyMap<number, SchemaErrorReason> = new Map(
  Object.entries(CONFLUENT_ERROR_CODES).map(([reason, code]) => [code, reason as SchemaErrorReason]),
);

/** The reason of a Confluent error code, or undefined for a code that is no refusal (401, 50001...). */
export function schemaErrorReasonOf(code: number): SchemaErrorReason | undefined {
  return reasonsByCode.get(code);
}

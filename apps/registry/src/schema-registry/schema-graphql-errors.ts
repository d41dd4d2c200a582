import { ErrorCode, RegistryError, userError, type UserError } from "@stream-registry/core";
import { isSchemaManagerError, type SchemaErrorReason } from "@stream-registry/provider-api";
import { UserErrors } from "../services/user-errors.ts";

/** Which input field each refusal is about, and the registry's code for it (the GraphQL face of rest-errors.ts). */
const byReason: Record<SchemaErrorReason, [ErrorCode, string]> = {
  SUBJECT_NOT_FOUND: [ErrorCode.NOT_FOUND, "subject"],
  VERSION_NOT_FOUND: [ErrorCode.NOT_FOUND, "version"],
  SCHEMA_NOT_FOUND: [ErrorCode.NOT_FOUND, "id"],
  SUBJECT_SOFT_DELETED: [ErrorCode.INVALID_INPUT, "subject"],
  SUBJECT_NOT_SOFT_DELETED: [ErrorCode.INVALID_INPUT, "permanent"],
  VERSION_SOFT_DELETED: [ErrorCode.INVALID_INPUT, "version"],
  VERSION_NOT_SOFT_DELETED: [ErrorCode.INVALID_INPUT, "permanent"],
  COMPATIBILITY_NOT_CONFIGURED: [ErrorCode.NOT_FOUND, "subject"],
  MODE_NOT_CONFIGURED: [ErrorCode.NOT_FOUND, "subject"],
  INCOMPATIBLE: [ErrorCode.INCOMPATIBLE, "schema"],
  INVALID_SCHEMA: [ErrorCode.INVALID_INPUT, "schema"],
  INVALID_VERSION: [ErrorCode.INVALID_INPUT, "version"],
  INVALID_COMPATIBILITY: [ErrorCode.INVALID_INPUT, "level"],
  INVALID_MODE: [ErrorCode.INVALID_INPUT, "mode"],
  OPERATION_NOT_PERMITTED: [ErrorCode.UNSUPPORTED, "subject"],
  REFERENCE_EXISTS: [ErrorCode.IN_USE, "version"],
  INVALID_SUBJECT: [ErrorCode.INVALID_INPUT, "subject"],
  SCHEMA_TOO_LARGE: [ErrorCode.INVALID_INPUT, "schema"],
  INVALID_INPUT: [ErrorCode.INVALID_INPUT, "schema"],
};

/** A user error that carries an incompatible schema's incompatibilities beside its message. */
export type SchemaUserError = UserError & { messages?: readonly string[] };

/**
 * A schema registry's refusal as the registry's error, naming the input field (`at` is where the
 * field's path starts: ["input"] for a mutation, [] for a query's arguments); an incompatible
 * schema as INCOMPATIBLE with its messages. An outage is PROVIDER_UNAVAILABLE; anything else as it is.
 */
export function schemaError(error: unknown, at: string[]): unknown {
  if (!isSchemaManagerError(error)) return error;
  if (error.reason === undefined) {
    return new RegistryError(ErrorCode.PROVIDER_UNAVAILABLE, `the schema registry failed: ${error.message}`);
  }
  const [code, field] = byReason[error.reason];
  if (code !== ErrorCode.INCOMPATIBLE) return new RegistryError(code, error.message, [...at, field]);
  const refused: SchemaUserError = {
    ...userError(code, [...at, field], error.message),
    messages: [...error.messages],
  };
  return new UserErrors([refused]);
}

/** Runs a call to a schema registry, its refusals turned by schemaError. */
export async function withSchemaErrors<T>(at: string[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw schemaError(error, at);
  }
}

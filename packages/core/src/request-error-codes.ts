/**
 * Codes that Apollo Server itself puts in `extensions.code` when it refuses a request before any
 * resolver runs (it cannot parse, validate or route it). They are not the registry's vocabulary
 * (ErrorCode), but a client of the registry meets them, so they are listed once here: the
 * registry passes them through as they are, and srctl maps each to an exit code.
 */
export const REQUEST_ERROR_CODES = [
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "OPERATION_RESOLUTION_FAILURE",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
] as const;

export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];

export function isRequestErrorCode(code: unknown): code is RequestErrorCode {
  return typeof code === "string" && (REQUEST_ERROR_CODES as readonly string[]).includes(code);
}

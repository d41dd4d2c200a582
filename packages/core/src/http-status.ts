import { ErrorCode } from "./errors.ts";

/**
 * The HTTP status of a GraphQL response that failed with this code and served nothing (a partial
 * answer stays 200). One table, typed over every code, so a new code cannot be forgotten: load
 * balancers and clients tell "fix the request" (4xx) from "try again" (502/503) without reading
 * the body. Mutations report expected failures as `userErrors` in a 200 answer; this is for
 * GraphQL errors.
 */
export const httpStatusOf: Readonly<Record<ErrorCode, number>> = {
  [ErrorCode.INVALID_INPUT]: 400,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.ALREADY_EXISTS]: 409,
  [ErrorCode.IN_USE]: 409,
  [ErrorCode.BEING_DELETED]: 409,
  [ErrorCode.PROVIDER_REJECTED]: 422,
  [ErrorCode.PROVIDER_UNAVAILABLE]: 503,
  [ErrorCode.INCOMPATIBLE]: 409,
  // 400, not 501: a 5xx invites retries, and asking again cannot help.
  [ErrorCode.UNSUPPORTED]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.QUERY_LIMIT_EXCEEDED]: 400,
  // Too Many Requests, with Retry-After: the one 4xx that asking again (later) can help.
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.DATABASE_UNAVAILABLE]: 503,
  // The registry is a gateway to its children: one that does not answer is a bad gateway.
  [ErrorCode.CHILD_UNAVAILABLE]: 502,
  [ErrorCode.INTERNAL_SERVER_ERROR]: 500,
};

/** Whether `code` is one of the registry's own codes (not, say, one Apollo Server set). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(httpStatusOf, code);
}

/** A fault is the registry's or its platform's failure, never the caller's: HTTP 5xx. */
export function isFaultCode(code: ErrorCode): boolean {
  return httpStatusOf[code] >= 500;
}

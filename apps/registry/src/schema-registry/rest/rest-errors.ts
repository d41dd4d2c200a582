import { ErrorCode, RegistryError } from "@stream-registry/core";
import { CONFLUENT_ERROR_CODES, isSchemaManagerError } from "@stream-registry/provider-api";
import { isDatabaseUnavailable } from "@stream-registry/store";
import { AuthenticationError } from "../../auth/authentication-error.ts";
import { RestError } from "./rest-error.ts";

export { CONFLUENT_ERROR_CODES };

/** Confluent's code for errors of its backend (and any fault here). */
export const STORE_ERROR_CODE = 50001;

/** An error as the REST API answers it; `fault` when it is the registry's own failure (logged). */
export function restErrorOf(error: unknown, requestId: string): { error: RestError; fault: boolean } {
  if (error instanceof RestError) return { error, fault: false };
  if (isSchemaManagerError(error) && error.reason !== undefined) {
    const code = CONFLUENT_ERROR_CODES[error.reason];
    return { error: new RestError(httpStatus(code), code, error.message), fault: false };
  }
  if (error instanceof AuthenticationError) {
    // Confluent clients send Basic credentials; Bearer tokens work too.
    const challenge = ['Basic realm="stream-registry", charset="UTF-8"', error.challenge];
    return { error: new RestError(401, 401, error.message, { "www-authenticate": challenge }), fault: false };
  }
  if (error instanceof RegistryError && error.code === ErrorCode.FORBIDDEN) {
    // Confluent's code for an authorization refusal (its RBAC's).
    return { error: new RestError(403, 40301, error.message), fault: false };
  }
  if (error instanceof RegistryError && error.code === ErrorCode.RATE_LIMITED) {
    const retry = String(error.details.retryAfterSeconds ?? 1);
    return { error: new RestError(429, 429, error.message, { "retry-after": retry }), fault: false };
  }
  const why = isDatabaseUnavailable(error)
    ? "the registry's database is unavailable; retry later"
    : "an unexpected error; the registry's log has it";
  return {
    error: new RestError(
      500,
      STORE_ERROR_CODE,
      `Error in the backend data store: ${why} (request id ${requestId})`,
    ),
    fault: true,
  };
}

/** 40401 -> 404, 409 -> 409. */
function httpStatus(code: number): number {
  return code >= 10_000 ? Math.floor(code / 100) : code;
}

import { ErrorCode, type RequestErrorCode } from "@stream-registry/core";

/**
 * srctl's exit codes, one per category of outcome, so that a pipeline can tell "fix your input"
 * from "try again later" without parsing messages. Documented in docs/cli.md and `srctl --help`.
 */
export enum ExitCode {
  OK = 0,
  /** The registry failed unexpectedly (INTERNAL_SERVER_ERROR, an unreadable response). */
  INTERNAL = 1,
  /** Usage, syntax or input error (INVALID_INPUT, PROVIDER_REJECTED, INCOMPATIBLE, a missing FILE). */
  BAD_INPUT = 2,
  /** A named object does not exist (NOT_FOUND). */
  NOT_FOUND = 3,
  /** The object exists, is in use or is being deleted (ALREADY_EXISTS, IN_USE, BEING_DELETED). */
  CONFLICT = 4,
  /** Try again later: the registry, its database or a provider could not be reached. */
  UNAVAILABLE = 5,
  /** Some namespaces answered, others did not (CHILD_UNAVAILABLE); the data shown is incomplete. */
  PARTIAL = 6,
  /** The registry does not have the operation a statement needs yet. */
  UNSUPPORTED = 7,
  /** --wait saw the object FAILED, or it did not settle before --timeout. */
  WAIT_FAILED = 8,
  /** The registry refused who is asking (UNAUTHENTICATED) or what they asked (FORBIDDEN). */
  DENIED = 9,
  /** The caller cancelled the run (Ctrl-C): 128 + SIGINT, as shells report it. */
  CANCELLED = 130,
}

/** Every registry code: a code added to core's ErrorCode does not compile until it is placed here. */
const byErrorCode: Record<ErrorCode, ExitCode> = {
  [ErrorCode.INVALID_INPUT]: ExitCode.BAD_INPUT,
  [ErrorCode.PROVIDER_REJECTED]: ExitCode.BAD_INPUT,
  [ErrorCode.INCOMPATIBLE]: ExitCode.BAD_INPUT,
  [ErrorCode.QUERY_LIMIT_EXCEEDED]: ExitCode.BAD_INPUT,
  [ErrorCode.NOT_FOUND]: ExitCode.NOT_FOUND,
  [ErrorCode.ALREADY_EXISTS]: ExitCode.CONFLICT,
  [ErrorCode.IN_USE]: ExitCode.CONFLICT,
  [ErrorCode.BEING_DELETED]: ExitCode.CONFLICT,
  [ErrorCode.UNSUPPORTED]: ExitCode.UNSUPPORTED,
  [ErrorCode.UNAUTHENTICATED]: ExitCode.DENIED,
  [ErrorCode.FORBIDDEN]: ExitCode.DENIED,
  [ErrorCode.PROVIDER_UNAVAILABLE]: ExitCode.UNAVAILABLE,
  [ErrorCode.DATABASE_UNAVAILABLE]: ExitCode.UNAVAILABLE,
  // Asked too much too fast: the same advice, try again later.
  [ErrorCode.RATE_LIMITED]: ExitCode.UNAVAILABLE,
  // As an error the whole answer is missing; a partial answer is PARTIAL (a warning, not an error).
  [ErrorCode.CHILD_UNAVAILABLE]: ExitCode.UNAVAILABLE,
  [ErrorCode.INTERNAL_SERVER_ERROR]: ExitCode.INTERNAL,
};

/** Apollo Server's own request-level codes (core's REQUEST_ERROR_CODES), each placed too. */
const byRequestErrorCode: Record<RequestErrorCode, ExitCode> = {
  BAD_USER_INPUT: ExitCode.BAD_INPUT,
  GRAPHQL_PARSE_FAILED: ExitCode.BAD_INPUT,
  BAD_REQUEST: ExitCode.BAD_INPUT,
  // srctl sent an operation this registry's schema does not have: an older or newer registry.
  GRAPHQL_VALIDATION_FAILED: ExitCode.UNSUPPORTED,
  OPERATION_RESOLUTION_FAILURE: ExitCode.BAD_INPUT,
  PERSISTED_QUERY_NOT_FOUND: ExitCode.INTERNAL,
  PERSISTED_QUERY_NOT_SUPPORTED: ExitCode.INTERNAL,
};

const byCode: Readonly<Record<string, ExitCode>> = { ...byErrorCode, ...byRequestErrorCode };

/**
 * The exit code of several outcomes in order: the first failure's; PARTIAL only when nothing
 * failed, and OK when everything was.
 */
export function combineExitCodes(first: ExitCode, next: ExitCode): ExitCode {
  return first === ExitCode.OK || (first === ExitCode.PARTIAL && next !== ExitCode.OK) ? next : first;
}

/** The exit code for a registry error code (userErrors[].code or extensions.code). */
export function exitCodeFor(errorCode: string | undefined): ExitCode {
  return (
    (errorCode !== undefined && Object.hasOwn(byCode, errorCode) ? byCode[errorCode] : undefined) ??
    ExitCode.INTERNAL
  );
}

/** One line per code for `srctl --help` and the docs. */
export const exitCodeHelp = `Exit codes:
  0  ok
  1  internal error (INTERNAL_SERVER_ERROR, unreadable response)
  2  bad input: usage, syntax, INVALID_INPUT, PROVIDER_REJECTED, INCOMPATIBLE, QUERY_LIMIT_EXCEEDED
  3  not found (NOT_FOUND)
  4  conflict (ALREADY_EXISTS, IN_USE, BEING_DELETED)
  5  unavailable: registry unreachable, PROVIDER_UNAVAILABLE, DATABASE_UNAVAILABLE, CHILD_UNAVAILABLE, RATE_LIMITED
  6  partial result: some namespaces did not answer (CHILD_UNAVAILABLE)
  7  statement not supported by this registry yet (UNSUPPORTED, or its API differs from srctl's)
  8  --wait: the object became FAILED, or --timeout passed
  9  denied: UNAUTHENTICATED, FORBIDDEN
130  cancelled (Ctrl-C); the registry may still apply a mutation already sent`;

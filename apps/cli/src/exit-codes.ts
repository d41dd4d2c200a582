/**
 * srctl's exit codes, one per category of outcome, so that a pipeline can tell "fix your input"
 * from "try again later" without parsing messages. Documented in docs/cli.md and `srctl --help`.
 */
export enum ExitCode {
  OK = 0,
  /** The registry failed unexpectedly (INTERNAL_SERVER_ERROR, an unreadable response). */
  INTERNAL = 1,
  /** Usage, syntax or input error (INVALID_INPUT, PROVIDER_REJECTED, a missing FILE). */
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
  /** The caller cancelled the run (Ctrl-C): 128 + SIGINT, as shells report it. */
  CANCELLED = 130,
}

const byErrorCode: Record<string, ExitCode> = {
  INVALID_INPUT: ExitCode.BAD_INPUT,
  PROVIDER_REJECTED: ExitCode.BAD_INPUT,
  QUERY_LIMIT_EXCEEDED: ExitCode.BAD_INPUT,
  BAD_USER_INPUT: ExitCode.BAD_INPUT,
  GRAPHQL_PARSE_FAILED: ExitCode.BAD_INPUT,
  GRAPHQL_VALIDATION_FAILED: ExitCode.UNSUPPORTED,
  BAD_REQUEST: ExitCode.BAD_INPUT,
  NOT_FOUND: ExitCode.NOT_FOUND,
  ALREADY_EXISTS: ExitCode.CONFLICT,
  IN_USE: ExitCode.CONFLICT,
  BEING_DELETED: ExitCode.CONFLICT,
  PROVIDER_UNAVAILABLE: ExitCode.UNAVAILABLE,
  DATABASE_UNAVAILABLE: ExitCode.UNAVAILABLE,
  CHILD_UNAVAILABLE: ExitCode.UNAVAILABLE,
  INTERNAL_SERVER_ERROR: ExitCode.INTERNAL,
};

/**
 * The exit code of several outcomes in order: the first failure's; PARTIAL only when nothing
 * failed, and OK when everything was.
 */
export function combineExitCodes(first: ExitCode, next: ExitCode): ExitCode {
  return first === ExitCode.OK || (first === ExitCode.PARTIAL && next !== ExitCode.OK) ? next : first;
}

/** The exit code for a registry error code (userErrors[].code or extensions.code). */
export function exitCodeFor(errorCode: string | undefined): ExitCode {
  return (errorCode !== undefined ? byErrorCode[errorCode] : undefined) ?? ExitCode.INTERNAL;
}

/** One line per code for `srctl --help` and the docs. */
export const exitCodeHelp = `Exit codes:
  0  ok
  1  internal error (INTERNAL_SERVER_ERROR, unreadable response)
  2  bad input: usage, syntax, INVALID_INPUT, PROVIDER_REJECTED, QUERY_LIMIT_EXCEEDED
  3  not found (NOT_FOUND)
  4  conflict (ALREADY_EXISTS, IN_USE, BEING_DELETED)
  5  unavailable: registry unreachable, PROVIDER_UNAVAILABLE, DATABASE_UNAVAILABLE
  6  partial result: some namespaces did not answer (CHILD_UNAVAILABLE)
  7  statement not supported by this registry yet (or its API differs from srctl's)
  8  --wait: the object became FAILED, or --timeout passed
130  cancelled (Ctrl-C); the registry may still apply a mutation already sent`;

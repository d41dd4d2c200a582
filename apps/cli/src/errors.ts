import { ExitCode, exitCodeFor } from "./exit-codes.ts";

/** Every failure srctl reports: a message for people, a category for the exit code. */
export class SrctlError extends Error {
  readonly exitCode: ExitCode;
  /** The registry's error code, when the registry named one. */
  readonly code: string | undefined;

  constructor(message: string, exitCode: ExitCode, code?: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = code;
  }
}

/** Bad command-line arguments. */
export class UsageError extends SrctlError {
  constructor(message: string) {
    super(message, ExitCode.BAD_INPUT);
  }
}

/** A statement's input is wrong before it reaches the registry (e.g. a FILE that cannot be read). */
export class InputError extends SrctlError {
  constructor(message: string) {
    super(message, ExitCode.BAD_INPUT, "INVALID_INPUT");
  }
}

/** The script does not parse; nothing was executed. */
export class ScriptSyntaxError extends SrctlError {
  readonly fileName: string;
  readonly line: number;
  readonly column: number;
  /** The text stopped in the middle of a statement (the REPL then reads on). */
  readonly atEnd: boolean;

  /** `message` is `file:line:col: expected ..., found ...`, as the parser words it. */
  constructor(fileName: string, line: number, column: number, message: string, atEnd = false) {
    super(message, ExitCode.BAD_INPUT, "SYNTAX_ERROR");
    this.fileName = fileName;
    this.line = line;
    this.column = column;
    this.atEnd = atEnd;
  }
}

/** No HTTP answer at all: connection refused, DNS failure, timeout. */
export class RegistryUnreachableError extends SrctlError {
  constructor(url: string, reason: string) {
    super(`cannot reach the registry at ${url}: ${reason}`, ExitCode.UNAVAILABLE, "REGISTRY_UNREACHABLE");
  }
}

/** The registry did not accept the credential (or there was none): HTTP 401. */
export class NotAuthenticatedError extends SrctlError {
  constructor(url: string, reason: string, tokenGiven: boolean) {
    const hint = tokenGiven
      ? "; check the token (SHOW TOKENS at the registry lists them)"
      : "; give srctl a token with --token or SRCTL_TOKEN";
    super(
      `the registry at ${url} refused the request: not authenticated: ${reason}${hint}`,
      ExitCode.DENIED,
      "UNAUTHENTICATED",
    );
  }
}

/** The caller cancelled the request; a mutation already sent may still be applied. */
export class CancelledError extends SrctlError {
  constructor() {
    super("cancelled", ExitCode.CANCELLED, "CANCELLED");
  }
}

/** An HTTP answer that is not a GraphQL response. */
export class BadResponseError extends SrctlError {
  constructor(url: string, detail: string, exitCode = ExitCode.INTERNAL) {
    super(`the registry at ${url} answered ${detail}`, exitCode, "BAD_RESPONSE");
  }
}

/**
 * The URL answered, but not as a GraphQL endpoint (the server's root, which redirects; the schema
 * registry's REST API; a health check): said so, with the URL a registry serves GraphQL at.
 */
export class NotGraphQLEndpointError extends SrctlError {
  constructor(url: string, detail: string, suggestion: string) {
    super(
      `${url} is not a registry's GraphQL endpoint (${detail}); a registry serves GraphQL at /graphql: try --registry ${suggestion}`,
      ExitCode.BAD_INPUT,
      "BAD_RESPONSE",
    );
  }
}

/** A GraphQL error (a fault) that left no usable data. */
export class RegistryFaultError extends SrctlError {
  constructor(message: string, code: string | undefined) {
    super(code ? `${code}: ${message}` : message, exitCodeFor(code), code);
  }
}

export interface UserErrorData {
  code: string;
  field: string[];
  message: string;
}

/** A mutation's expected failure (`userErrors`): nothing was changed. */
export class UserErrorsError extends SrctlError {
  readonly userErrors: UserErrorData[];

  constructor(userErrors: UserErrorData[]) {
    const lines = userErrors.map(
      (e) => `${e.code}${e.field.length ? ` at ${e.field.join(".")}` : ""}: ${e.message}`,
    );
    super(lines.join("\n"), exitCodeFor(userErrors[0]?.code), userErrors[0]?.code);
    this.userErrors = userErrors;
  }
}

/** The registry does not have the operation this statement needs (yet). */
export class UnsupportedStatementError extends SrctlError {
  constructor(url: string, statement: string, operation: string, root: "Query" | "Mutation") {
    const what = root === "Mutation" ? "mutation" : "query";
    super(
      `the registry at ${url} does not support ${statement} yet (no ${operation} ${what})`,
      ExitCode.UNSUPPORTED,
      "UNSUPPORTED",
    );
  }
}

/** The registry has the operation, but refused the document srctl made for it (versions disagree). */
export class ApiMismatchError extends SrctlError {
  constructor(url: string, statement: string, detail: string) {
    super(
      `the registry at ${url} does not accept srctl's ${statement} (${detail}); srctl and the registry disagree on the API`,
      ExitCode.UNSUPPORTED,
      "GRAPHQL_VALIDATION_FAILED",
    );
  }
}

/** --wait ended without the object settling in the desired phase. */
export class WaitFailedError extends SrctlError {
  constructor(message: string) {
    super(message, ExitCode.WAIT_FAILED, "WAIT_FAILED");
  }
}

/** Whatever was thrown, as an SrctlError (unexpected ones are internal errors). */
export function asSrctlError(error: unknown): SrctlError {
  if (error instanceof SrctlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SrctlError(`internal error: ${message}`, ExitCode.INTERNAL, "INTERNAL");
}

/** A query found nothing by that name (the registry answers null rather than an error). */
export class NotFoundError extends SrctlError {
  constructor(message: string) {
    super(message, ExitCode.NOT_FOUND, "NOT_FOUND");
  }
}

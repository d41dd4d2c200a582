/**
 * The one error-code vocabulary of the registry. GraphQL errors carry it in
 * `extensions.code`; expected failures of a mutation carry it in `userErrors`.
 */
export enum ErrorCode {
  /** A field of the input breaks a rule (name syntax, config map shape, page size, cursor). */
  INVALID_INPUT = "INVALID_INPUT",
  /** A named object (namespace, cluster, stream, binding, ...) does not exist. */
  NOT_FOUND = "NOT_FOUND",
  /** A create names an object that already exists. */
  ALREADY_EXISTS = "ALREADY_EXISTS",
  /** A delete is blocked by dependents, e.g. a stream with bindings or a cluster with bindings. */
  IN_USE = "IN_USE",
  /** A change targets an object whose deletion is in progress. */
  BEING_DELETED = "BEING_DELETED",
  /** The cluster's stream provider refused the config. */
  PROVIDER_REJECTED = "PROVIDER_REJECTED",
  /** The stream provider could not be reached to validate; an outage, so a fault, not user data. */
  PROVIDER_UNAVAILABLE = "PROVIDER_UNAVAILABLE",
  /**
   * The object is valid on its own but cannot live beside what exists: e.g. a schema that breaks
   * its subject's compatibility rule, or a relocation between clusters of different kinds.
   */
  INCOMPATIBLE = "INCOMPATIBLE",
  /** This registry, or the cluster's provider, does not offer the operation (yet), e.g. sinks on registry-only. */
  UNSUPPORTED = "UNSUPPORTED",
  /** The request carries no valid credentials; authenticate and send it again. */
  UNAUTHENTICATED = "UNAUTHENTICATED",
  /** The caller is known but may not do this (to this namespace or object). */
  FORBIDDEN = "FORBIDDEN",
  /** A request exceeds a query limit (depth, aliases, directives, tokens, cost, or its run-time budget). */
  QUERY_LIMIT_EXCEEDED = "QUERY_LIMIT_EXCEEDED",
  /**
   * The caller has spent its rate limit: the query cost it may spend per window (a fan-out to N
   * child registries counting N times more). Retry after `extensions.retryAfterSeconds`.
   */
  RATE_LIMITED = "RATE_LIMITED",
  /** Fault: the database could not be reached; the request may be retried. */
  DATABASE_UNAVAILABLE = "DATABASE_UNAVAILABLE",
  /**
   * Fault: a child registry that owns part of the answer (a sub-namespace) could not be reached;
   * the request may be retried, and a read may come back partial with this as its error.
   */
  CHILD_UNAVAILABLE = "CHILD_UNAVAILABLE",
  /** Fault: anything unexpected; masked in production and logged with the request id. */
  INTERNAL_SERVER_ERROR = "INTERNAL_SERVER_ERROR",
}

/** An expected failure, returned as data in a mutation payload rather than thrown. */
export interface UserError {
  code: ErrorCode;
  /** Path of the offending input field, e.g. ["input", "config", "apache.kafka", "partitions"]. */
  field: string[];
  message: string;
}

export function userError(code: ErrorCode, field: string[], message: string): UserError {
  // Copied so a caller that keeps building its path array cannot change a reported error.
  return { code, field: [...field], message };
}

/** Thrown by domain logic; the API layer turns it into a userError or a GraphQL error by code. */
export class RegistryError extends Error {
  readonly code: ErrorCode;
  readonly field: string[];
  /** Facts a client can act on, sent beside `code` in a GraphQL error's extensions. */
  readonly details: Readonly<Record<string, string | number>>;

  constructor(
    code: ErrorCode,
    message: string,
    field: string[] = [],
    details: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = "RegistryError";
    this.code = code;
    this.field = [...field];
    this.details = { ...details };
  }

  toUserError(): UserError {
    return userError(this.code, this.field, this.message);
  }
}

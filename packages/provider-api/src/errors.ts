/** One issue with one config value, with the path inside the config maps, e.g. ["apache.kafka", "partitions"]. */
export interface ConfigIssue {
  field: string[];
  message: string;
}

/**
 * The brand of provider errors: a global symbol, so that an error made by another copy of this
 * package (a provider that bundles its own provider-api) is still recognised. `instanceof` is not:
 * each copy has its own classes. Its value is the error's kind.
 */
export const PROVIDER_ERROR_BRAND: unique symbol = Symbol.for("stream-registry.provider-error");

/** Which of the classes below an error is; subclasses a provider defines take their base's kind. */
export type ProviderErrorKind =
  | "provider"
  | "infrastructure"
  | "resource-conflict"
  | "connect-not-allowed"
  | "schema"
  | "source"
  | "sink"
  | "replication"
  | "relocation";

/**
 * Base of every error a provider throws. `retriable` tells the reconciler whether trying again
 * later can succeed (a broker is down) or not (the config is refused): retriable errors keep an
 * object PENDING with backoff, the others make it FAILED until its desired state changes.
 */
export class ProviderError extends Error {
  /** The brand's value for instances of this class; each class below names its own. */
  static readonly kind: ProviderErrorKind = "provider";
  readonly [PROVIDER_ERROR_BRAND]: ProviderErrorKind;
  readonly retriable: boolean;
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, options: { retriable: boolean; issues?: ConfigIssue[]; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this[PROVIDER_ERROR_BRAND] = (new.target as typeof ProviderError).kind;
    this.retriable = options.retriable;
    this.issues = options.issues ?? [];
  }
}

/** Thrown by a StreamInfrastructureManager (the seed's InfrastructureException). */
export class InfrastructureError extends ProviderError {
  static override readonly kind: ProviderErrorKind = "infrastructure";
}

/**
 * A create found a resource of that name that differs from the request, and left it as it is:
 * never retried, and it made nothing (so the registry never deletes that resource for the binding).
 */
export class ResourceConflictError extends InfrastructureError {
  static override readonly kind: ProviderErrorKind = "resource-conflict";
  constructor(message: string) {
    super(message, { retriable: false });
  }
}
/**
 * The platform told the provider to connect to an address the registry's ConnectPolicy does not
 * allow (a Kafka cluster advertising a broker outside REGISTRY_CONNECT_ALLOW), and it did not.
 * `issues` name the config field that led there; the registry refuses such a config as invalid
 * input. Not retriable: the cluster or the allow-list must change.
 */
export class ConnectNotAllowedError extends InfrastructureError {
  static override readonly kind: ProviderErrorKind = "connect-not-allowed";
  constructor(message: string, issues: ConfigIssue[]) {
    super(message, { retriable: false, issues });
  }
}

/**
 * Why a schema registry refused a call, as Confluent's error codes tell it apart (the REST API of
 * the built-in registry maps each to its code; GraphQL to the registry's ErrorCode).
 */
export const SCHEMA_ERROR_REASONS = [
  "SUBJECT_NOT_FOUND",
  "VERSION_NOT_FOUND",
  "SCHEMA_NOT_FOUND",
  "SUBJECT_SOFT_DELETED",
  "SUBJECT_NOT_SOFT_DELETED",
  "VERSION_SOFT_DELETED",
  "VERSION_NOT_SOFT_DELETED",
  "COMPATIBILITY_NOT_CONFIGURED",
  "MODE_NOT_CONFIGURED",
  "INCOMPATIBLE",
  "INVALID_SCHEMA",
  "INVALID_VERSION",
  "INVALID_COMPATIBILITY",
  "INVALID_MODE",
  "OPERATION_NOT_PERMITTED",
  "REFERENCE_EXISTS",
  "INVALID_SUBJECT",
  "SCHEMA_TOO_LARGE",
  "INVALID_INPUT",
] as const;
export type SchemaErrorReason = (typeof SCHEMA_ERROR_REASONS)[number];

/**
 * Thrown by a SchemaManager. A refusal carries its `reason` (and `messages`: an incompatible
 * schema's incompatibilities) and is not retriable; an outage has no reason.
 */
export class SchemaManagerError extends ProviderError {
  static override readonly kind: ProviderErrorKind = "schema";
  readonly reason: SchemaErrorReason | undefined;
  readonly messages: readonly string[];

  constructor(
    message: string,
    options: {
      retriable: boolean;
      reason?: SchemaErrorReason;
      messages?: string[];
      issues?: ConfigIssue[];
      cause?: unknown;
    },
  ) {
    super(message, options);
    this.reason = options.reason;
    this.messages = options.messages ?? [];
  }
}

/** A refusal of a schema registry: not retriable, with its reason. */
export function schemaRefused(
  reason: SchemaErrorReason,
  message: string,
  messages: string[] = [],
): SchemaManagerError {
  return new SchemaManagerError(message, { retriable: false, reason, messages });
}
/** Thrown by a StreamSourceManager. */
export class StreamSourceError extends ProviderError {
  static override readonly kind: ProviderErrorKind = "source";
}
/** Thrown by a StreamSinkManager. */
export class StreamSinkError extends ProviderError {
  static override readonly kind: ProviderErrorKind = "sink";
}
/** Thrown by a StreamReplicationManager. */
export class StreamReplicationError extends ProviderError {
  static override readonly kind: ProviderErrorKind = "replication";
}
/** Thrown by a StreamRelocationManager. */
export class StreamRelocationError extends ProviderError {
  static override readonly kind: ProviderErrorKind = "relocation";
}

/** A provider refused a config: never retried. */
export function configRejected(message: string, issues: ConfigIssue[] = []): InfrastructureError {
  return new InfrastructureError(message, { retriable: false, issues });
}

const kinds: ReadonlySet<unknown> = new Set<ProviderErrorKind>([
  "provider",
  "infrastructure",
  "resource-conflict",
  "connect-not-allowed",
  "schema",
  "source",
  "sink",
  "replication",
  "relocation",
]);

/**
 * Whether `error` is a provider error, from this copy of provider-api or any other: it carries the
 * brand with a known kind and a boolean `retriable`. Use this and the predicates below, never
 * `instanceof ProviderError`.
 */
export function isProviderError(error: unknown): error is ProviderError {
  if (typeof error !== "object" || error === null) return false;
  const candidate = error as Partial<Record<typeof PROVIDER_ERROR_BRAND, unknown> & { retriable: unknown }>;
  return kinds.has(candidate[PROVIDER_ERROR_BRAND]) && typeof candidate.retriable === "boolean";
}

/** A provider error that trying again cannot fix (a refused config): the object becomes FAILED. */
export function isPermanentProviderError(error: unknown): error is ProviderError {
  return isProviderError(error) && !error.retriable;
}

/** A provider error that may pass on another try (an outage): retried with backoff. */
export function isTransientProviderError(error: unknown): error is ProviderError {
  return isProviderError(error) && error.retriable;
}

/** A SchemaManagerError, from any copy of provider-api. */
export function isSchemaManagerError(error: unknown): error is SchemaManagerError {
  return isProviderError(error) && error[PROVIDER_ERROR_BRAND] === "schema";
}

/** An InfrastructureError (a ResourceConflictError included), from any copy of provider-api. */
export function isInfrastructureError(error: unknown): error is InfrastructureError {
  const kind = isProviderError(error) ? error[PROVIDER_ERROR_BRAND] : undefined;
  return kind === "infrastructure" || kind === "resource-conflict" || kind === "connect-not-allowed";
}

/** A connection the registry's ConnectPolicy did not allow (ConnectNotAllowedError). */
export function isConnectNotAllowedError(error: unknown): error is ConnectNotAllowedError {
  return isProviderError(error) && error[PROVIDER_ERROR_BRAND] === "connect-not-allowed";
}

/** A create refused because a different resource of that name exists (ResourceConflictError). */
export function isResourceConflictError(error: unknown): error is ResourceConflictError {
  return isProviderError(error) && error[PROVIDER_ERROR_BRAND] === "resource-conflict";
}

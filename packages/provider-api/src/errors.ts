/** One issue with one config value, with the path inside the config maps, e.g. ["apache.kafka", "partitions"]. */
export interface ConfigIssue {
  field: string[];
  message: string;
}

/**
 * Base of every error a provider throws. `retriable` tells the reconciler whether trying again
 * later can succeed (a broker is down) or not (the config is refused): retriable errors keep an
 * object PENDING with backoff, the others make it FAILED until its desired state changes.
 */
export class ProviderError extends Error {
  readonly retriable: boolean;
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, options: { retriable: boolean; issues?: ConfigIssue[]; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.retriable = options.retriable;
    this.issues = options.issues ?? [];
  }
}

/** Thrown by a StreamInfrastructureManager (the seed's InfrastructureException). */
export class InfrastructureError extends ProviderError {}

/**
 * A create found a resource of that name that differs from the request, and left it as it is:
 * never retried, and it made nothing (so the registry never deletes that resource for the binding).
 */
export class ResourceConflictError extends InfrastructureError {
  constructor(message: string) {
    super(message, { retriable: false });
  }
}
/** Thrown by a SchemaManager. */
export class SchemaManagerError extends ProviderError {}
/** Thrown by a StreamSourceManager. */
export class StreamSourceError extends ProviderError {}
/** Thrown by a StreamSinkManager. */
export class StreamSinkError extends ProviderError {}
/** Thrown by a StreamReplicationManager. */
export class StreamReplicationError extends ProviderError {}
/** Thrown by a StreamRelocationManager. */
export class StreamRelocationError extends ProviderError {}

/** A provider refused a config: never retried. */
export function configRejected(message: string, issues: ConfigIssue[] = []): InfrastructureError {
  return new InfrastructureError(message, { retriable: false, issues });
}

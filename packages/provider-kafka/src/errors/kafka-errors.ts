import { InfrastructureError, isInfrastructureError, isProviderError } from "@stream-registry/provider-api";
import { KafkaJSAggregateError, KafkaJSError } from "../kafkajs.ts";

/** Kafka error types that trying again cannot fix: the request itself is refused. */
export const PERMANENT_KAFKA_ERRORS = new Set([
  "INVALID_PARTITIONS",
  "INVALID_CONFIG",
  "POLICY_VIOLATION",
  "TOPIC_AUTHORIZATION_FAILED",
  "CLUSTER_AUTHORIZATION_FAILED",
  "INVALID_REPLICA_ASSIGNMENT",
  "INVALID_TOPIC_EXCEPTION",
  "INVALID_REQUEST",
  "UNSUPPORTED_VERSION",
  "TOPIC_DELETION_DISABLED",
  "SASL_AUTHENTICATION_FAILED",
  "ILLEGAL_SASL_STATE",
  "UNSUPPORTED_SASL_MECHANISM",
]);

/** Kafka error types of a cluster in motion (elections, restarts, overload): retried later. */
export const RETRIABLE_KAFKA_ERRORS = new Set([
  "NOT_CONTROLLER",
  "LEADER_NOT_AVAILABLE",
  "NOT_LEADER_FOR_PARTITION",
  "NOT_LEADER_OR_FOLLOWER",
  "REQUEST_TIMED_OUT",
  "NETWORK_EXCEPTION",
  "BROKER_NOT_AVAILABLE",
  "REPLICA_NOT_AVAILABLE",
  "NOT_ENOUGH_REPLICAS",
  "KAFKA_STORAGE_ERROR",
  "COORDINATOR_NOT_AVAILABLE",
  "COORDINATOR_LOAD_IN_PROGRESS",
  "THROTTLING_QUOTA_EXCEEDED",
  // A topic of the same name is still being deleted: creating it works once deletion finishes.
  "TOPIC_ALREADY_EXISTS",
  // KRaft compares the factor with the brokers alive right now, so a rolling restart returns it for a
  // factor the cluster can hold; a factor above the cluster's size is refused when the stream is written.
  "INVALID_REPLICATION_FACTOR",
]);

/**
 * kafkajs error classes that mean the cluster could not be reached or did not answer in time. By
 * name, because kafkajs names each class and a subclass (KafkaJSTopicMetadataNotLoaded of
 * KafkaJSMetadataNotLoaded) can mean something else: that one is a client's own cache missing a topic.
 */
const CONNECTION_ERRORS = new Set([
  "KafkaJSConnectionError",
  "KafkaJSConnectionClosedError",
  "KafkaJSRequestTimeoutError",
  "KafkaJSBrokerNotFound",
  "KafkaJSMetadataNotLoaded",
  "KafkaJSNoBrokerAvailableError",
  "KafkaJSTimeout",
  "KafkaJSLockTimeout",
]);

/** Socket error codes of an unreachable host or a dropped connection. */
const SOCKET_ERROR_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN)$/;

/**
 * Node's TLS codes for a broker certificate the client refused: not signed by a trusted CA, another
 * host name, out of its dates. Kafka's own clients treat these (SslAuthenticationException) as fatal.
 */
const TLS_REFUSAL_CODES = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

interface ErrorLike {
  name?: string;
  message?: string;
  type?: string;
  code?: unknown;
  retriable?: boolean;
  cause?: unknown;
  errors?: unknown[];
}

const asErrorLike = (error: unknown): ErrorLike | undefined =>
  typeof error === "object" && error !== null ? (error as ErrorLike) : undefined;

/** Whether `error` is one of kafkajs' own errors (KafkaJSError and its subclasses, or its aggregate of them). */
export function isKafkaError(error: unknown): boolean {
  return error instanceof KafkaJSError || error instanceof KafkaJSAggregateError;
}

/**
 * The error that says what went wrong: kafkajs wraps the broker's answer, and errors thrown inside
 * its retries, in retry and aggregate errors (KafkaJSNumberOfRetriesExceeded, KafkaJSNonRetriableError,
 * KafkaJSAggregateError). Unwrapping stops at the first error that is not such a wrapper.
 */
export function rootKafkaError(error: unknown): ErrorLike | undefined {
  let current = asErrorLike(error);
  for (let depth = 0; current && depth < 10; depth += 1) {
    if (!isKafkaError(current)) return current;
    if (typeof current.type === "string" || current.name === "KafkaJSSASLAuthenticationError") return current;
    if (CONNECTION_ERRORS.has(current.name ?? "")) return current;
    const next = asErrorLike(Array.isArray(current.errors) ? current.errors[0] : current.cause);
    if (!next || next === current) return current;
    current = next;
  }
  return current;
}

/** The Kafka protocol error type (e.g. "INVALID_CONFIG") inside a kafkajs error, if any. */
export function kafkaErrorType(error: unknown): string | undefined {
  const root = rootKafkaError(error);
  return isKafkaError(root) ? root?.type : undefined;
}

/** Whether the client refused the broker's TLS certificate (see TLS_REFUSAL_CODES). */
export function isTlsRefusal(error: unknown): boolean {
  const code = rootKafkaError(error)?.code;
  return typeof code === "string" && TLS_REFUSAL_CODES.has(code);
}

/**
 * Whether an error means the connection itself is in trouble, so the admin client should be
 * replaced: a kafkajs connection or timeout error, or a socket error of Node's. A refused
 * certificate is not: the broker was reached, and trying again cannot change its answer.
 */
export function isConnectionError(error: unknown): boolean {
  const root = rootKafkaError(error);
  if (!root || isTlsRefusal(error)) return false;
  if (isKafkaError(root)) return CONNECTION_ERRORS.has(root.name ?? "");
  return typeof root.code === "string" && "syscall" in root && SOCKET_ERROR_CODES.test(root.code);
}

/** Where an error happened, for its message. */
export interface KafkaErrorContext {
  /** What was being done, e.g. "create topic \"widgets_v0\"". */
  action: string;
  /** The cluster as the registry names it, e.g. "/cluster001". */
  cluster: string;
  brokers: readonly string[];
}

/**
 * Maps any error of a kafkajs call to an InfrastructureError whose message names the action, the
 * cluster and the Kafka error, and whose `retriable` tells the reconciler whether to back off and
 * retry (an outage, an election) or to give up (a refused config, a denied ACL).
 */
export function toInfrastructureError(error: unknown, context: KafkaErrorContext): InfrastructureError {
  if (isInfrastructureError(error)) return error;
  if (isProviderError(error)) {
    return new InfrastructureError(error.message, {
      retriable: error.retriable,
      issues: [...error.issues],
      cause: error,
    });
  }
  const root = rootKafkaError(error);
  const where = `${context.action} on Kafka cluster "${context.cluster}" (${context.brokers.join(",")})`;
  const detail = root?.message ?? String(error);
  if (isTlsRefusal(error)) {
    return new InfrastructureError(
      `${where} failed: the broker's TLS certificate was refused (check "ssl.truststore.certificates" ` +
        `and "ssl.endpoint.identification.algorithm"): ${detail}`,
      { retriable: false, cause: error },
    );
  }
  if (isConnectionError(error)) {
    return new InfrastructureError(`${where} failed: cannot reach the cluster: ${detail}`, {
      retriable: true,
      cause: error,
    });
  }
  if (!root || !isKafkaError(root)) {
    // Not kafkajs' nor the broker's answer: a bug (ours or kafkajs'), named as what it is. Retried,
    // since such a bug may depend on timing, but never reported as an outage.
    const name = root?.name ?? typeof error;
    return new InfrastructureError(`${where} failed: unexpected ${name}: ${detail}`, {
      retriable: true,
      cause: error,
    });
  }
  const mechanismRefused =
    root.type === "UNSUPPORTED_SASL_MECHANISM" || /mechanism is not supported/.test(detail);
  if (
    mechanismRefused ||
    root.name === "KafkaJSSASLAuthenticationError" ||
    root.type === "SASL_AUTHENTICATION_FAILED"
  ) {
    const why = mechanismRefused
      ? 'the cluster does not offer this "sasl.mechanism"'
      : 'the credentials were rejected (check "sasl.mechanism", "sasl.username" and "sasl.password")';
    const answer = root.type === undefined ? detail : `${root.type}: ${detail}`;
    return new InfrastructureError(`${where} failed: SASL authentication refused: ${why}: ${answer}`, {
      retriable: false,
      cause: error,
    });
  }
  const type = root.type;
  if (type !== undefined) {
    const retriable = PERMANENT_KAFKA_ERRORS.has(type)
      ? false
      : RETRIABLE_KAFKA_ERRORS.has(type)
        ? true
        : root.retriable !== false;
    return new InfrastructureError(`${where} failed: ${type}: ${detail}`, { retriable, cause: error });
  }
  // Any other kafkajs error (e.g. an answer it could not use) may pass on another try.
  return new InfrastructureError(`${where} failed: ${root.name}: ${detail}`, {
    retriable: true,
    cause: error,
  });
}

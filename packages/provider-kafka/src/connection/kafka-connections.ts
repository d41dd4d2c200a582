import { createHash } from "node:crypto";
import { fqnPrefix, type ConfigMaps, type RetryDelayOptions } from "@stream-registry/core";
import {
  configRejected,
  InfrastructureError,
  isProviderError,
  UNRESTRICTED_CONNECT,
  type ClusterTarget,
  type ConnectPolicy,
  type OperationContext,
} from "@stream-registry/provider-api";
import type { Admin, KafkaConfig } from "kafkajs";
import { clusterSettingsOf } from "../config/config-maps.ts";
import type { ClusterSettings } from "../config/cluster-config.ts";
import {
  isConnectionError,
  isKafkaError,
  rootKafkaError,
  toInfrastructureError,
} from "../errors/kafka-errors.ts";
import {
  AdminPool,
  defaultKafkaFactory,
  type AdminLease,
  type AdminSpec,
  type KafkaFactory,
} from "./admin-pool.ts";
import { OffsetsAdmins } from "./offsets-admins.ts";
import { ClusterHealthBook } from "./cluster-health.ts";
import { checkIdleCloseMs, DEFAULT_IDLE_CLOSE_MS } from "./idle-timer.ts";
import { CallInterrupted, withDeadline } from "./deadline.ts";
import { brokerCheck, guardedSocketFactory, type BrokerCheck } from "./guarded-sockets.ts";
import { kafkaClientConfig } from "./kafka-client-config.ts";
import {
  defaultKafkaLogLevel,
  kafkaLogCreator,
  kafkaLogLevel,
  type KafkaLogLevel,
  type KafkaLogSink,
} from "./kafka-logging.ts";

export interface KafkaConnectionOptions {
  /** Spacing of reconnect attempts to an unreachable cluster; default base 500 ms, max 30 s. */
  reconnectBackoff?: RetryDelayOptions;
  /**
   * How long a cluster's admin clients stay connected unused before they are closed (the next call
   * connects again); default 5 minutes. Keep it above the registry's health probe interval
   * (REGISTRY_HEALTH_INTERVAL_MS, 30 s), which keeps the clients of declared clusters connected.
   */
  idleCloseMs?: number;
  /** Makes kafkajs clients; tests wrap it to count clients and connections. */
  kafkaFactory?: KafkaFactory;
  /** kafkajs log level; default KAFKA_PROVIDER_LOG_LEVEL, else "nothing". */
  logLevel?: KafkaLogLevel;
  /** Where kafkajs log entries go; default one JSON line per entry on stderr. */
  logSink?: KafkaLogSink;
}

/** A cluster the provider talks to: its settings and the names errors use. */
export interface ResolvedCluster {
  /** Registry identity: namespace and name. */
  key: string;
  /** How messages name it, e.g. "/aws/cluster001". */
  label: string;
  settings: ClusterSettings;
  /** Hash of the connection settings: a changed config gets a new client. */
  fingerprint: string;
}

/** Parses a cluster's connection config; a config the provider cannot use is refused for good. */
export function resolveSettings(label: string, maps: ConfigMaps): ClusterSettings {
  const { settings, issues } = clusterSettingsOf(maps);
  if (!settings) {
    throw configRejected(
      `cluster "${label}" has no usable "apache.kafka" config: ${issues.map((issue) => issue.message).join("; ")}`,
      issues,
    );
  }
  return settings;
}

/** A cluster's registry identity: namespace and name. */
const clusterKey = (target: ClusterTarget): string => `${target.namespace}\u0000${target.name}`;

function resolveCluster(target: ClusterTarget): ResolvedCluster {
  const label = `${fqnPrefix(target.namespace)}${target.name}`;
  const settings = resolveSettings(label, target.config);
  const fingerprint = createHash("sha256").update(JSON.stringify(settings)).digest("hex");
  return { key: clusterKey(target), label, settings, fingerprint };
}

/** A topic's offsets per partition, as kafkajs' `fetchTopicOffsets` returns them. */
export type TopicOffsets = Awaited<ReturnType<Admin["fetchTopicOffsets"]>>;

/** Reads a topic's offsets on a client of its own (see OffsetsAdmins). */
export type OffsetsReader = (topic: string) => Promise<TopicOffsets>;

/** A call refused within the reconnect backoff, without contacting the cluster. */
class BackoffRefusal extends InfrastructureError {}

/**
 * Whether a KafkaConnections call failed because the cluster was out of reach: it could not connect,
 * did not answer within the deadline, the call was aborted, or the reconnect backoff refused it.
 * Not a refusal by the cluster, and not a bug (which toInfrastructureError also marks retriable).
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof CallInterrupted || error instanceof BackoffRefusal) return true;
  return isProviderError(error) && isConnectionError(error.cause);
}

/**
 * The provider's connections: one pooled admin per cluster shared by concurrent calls, a deadline
 * and the caller's abort signal on every call, kafkajs errors mapped to InfrastructureErrors, and
 * per-cluster health with reconnect backoff.
 */
export class KafkaConnections {
  readonly pool: AdminPool;
  readonly offsets: OffsetsAdmins;
  readonly health: ClusterHealthBook;
  private readonly factory: KafkaFactory;
  private readonly logOptions: Pick<KafkaConfig, "logLevel" | "logCreator">;
  /**
   * Where the registry lets the clients connect (registryWillStart sets it before any client is
   * made): a broker a cluster advertises outside it is never connected to.
   */
  connectPolicy: ConnectPolicy = UNRESTRICTED_CONNECT;
  /** Each cluster's resolved settings with the config they came from. */
  private readonly resolved = new Map<string, { config: string; cluster: ResolvedCluster }>();

  constructor(options: KafkaConnectionOptions = {}) {
    this.factory = options.kafkaFactory ?? defaultKafkaFactory;
    const idleMs = checkIdleCloseMs(options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS);
    this.pool = new AdminPool(this.factory, idleMs);
    this.offsets = new OffsetsAdmins(this.factory, idleMs);
    this.health = new ClusterHealthBook({ baseMs: 500, maxMs: 30_000, ...options.reconnectBackoff });
    this.logOptions = {
      logLevel: kafkaLogLevel(options.logLevel ?? defaultKafkaLogLevel()),
      logCreator: kafkaLogCreator(options.logSink),
    };
  }

  clientConfig(settings: ClusterSettings): KafkaConfig {
    const policy = this.connectPolicy;
    return {
      ...kafkaClientConfig(settings),
      ...this.logOptions,
      ...(policy.restricted && { socketFactory: guardedSocketFactory(this.brokerCheck(settings)) }),
    };
  }

  /** Where a client of a cluster with these settings may connect (see guarded-sockets.ts). */
  brokerCheck(settings: ClusterSettings): BrokerCheck {
    return brokerCheck(this.connectPolicy, settings.brokers);
  }

  private spec(cluster: ResolvedCluster): AdminSpec {
    return {
      fingerprint: cluster.fingerprint,
      config: () => this.clientConfig(cluster.settings),
      drainMs: cluster.settings.operationTimeoutMs,
    };
  }

  /**
   * Runs `work` with the cluster's pooled admin (and an offsets reader), within the cluster's deadline
   * and the caller's signal.
   */
  async withAdmin<T>(
    cluster: ResolvedCluster,
    context: OperationContext,
    action: string,
    work: (admin: Admin, offsets: OffsetsReader) => Promise<T>,
    options: { timeoutMs?: number } = {},
  ): Promise<T> {
    const { key, label, settings } = cluster;
    const where = `${action} on Kafka cluster "${label}" (${settings.brokers.join(",")})`;
    const waitUntil = this.health.waitUntil(key);
    if (waitUntil && !this.pool.has(key)) {
      // Within the reconnect backoff: fail as the last attempt did, without opening connections.
      const health = this.health.get(key);
      throw new BackoffRefusal(`${where} failed: cannot reach the cluster: ${health.lastConnectionError}`, {
        retriable: true,
      });
    }
    const spec = this.spec(cluster);
    const offsets: OffsetsReader = (topic) =>
      this.offsets.use(key, spec, topic, (admin) => admin.fetchTopicOffsets(topic));
    let lease: AdminLease | undefined;
    // A caller's deadline shorter than the cluster's says how long that caller waits, not that the
    // cluster hangs: a slow first TLS/SASL connect must not retire the client the others share.
    const callerDeadline = options.timeoutMs !== undefined && options.timeoutMs < settings.operationTimeoutMs;
    try {
      const result = await withDeadline(
        async () => {
          const current = this.pool.lease(key, spec);
          lease = current;
          // Released when kafkajs is done, even after the deadline: until then the client is in use.
          try {
            await current.ready;
            return await work(current.admin, offsets);
          } finally {
            current.release();
          }
        },
        {
          signal: context.signal,
          timeoutMs: Math.min(options.timeoutMs ?? Infinity, settings.operationTimeoutMs),
          what: where,
        },
      );
      this.health.connected(key);
      return result;
    } catch (error) {
      throw this.failed(cluster, action, lease, error, callerDeadline);
    }
  }

  /**
   * Runs `work` with a short-lived admin of its own: for clusters not declared yet (DECLARE CLUSTER
   * validation), which must not take a pooled client.
   */
  async withTransientAdmin<T>(
    label: string,
    settings: ClusterSettings,
    context: OperationContext,
    action: string,
    work: (admin: Admin) => Promise<T>,
  ): Promise<T> {
    const where = `${action} on Kafka cluster "${label}" (${settings.brokers.join(",")})`;
    const admin = this.factory(this.clientConfig(settings)).admin();
    try {
      return await withDeadline(
        async () => {
          await admin.connect();
          return work(admin);
        },
        { signal: context.signal, timeoutMs: settings.operationTimeoutMs, what: where },
      );
    } catch (error) {
      throw toInfrastructureError(error, { action, cluster: label, brokers: settings.brokers });
    } finally {
      admin.disconnect().catch(() => undefined);
    }
  }

  private failed(
    cluster: ResolvedCluster,
    action: string,
    lease: AdminLease | undefined,
    error: unknown,
    callerDeadline: boolean,
  ): InfrastructureError {
    const mapped = toInfrastructureError(error, {
      action,
      cluster: cluster.label,
      brokers: cluster.settings.brokers,
    });
    // The caller stopped waiting (its signal, or its own shorter deadline): nothing is known about
    // the cluster, so the client stays, no backoff starts and health records nothing.
    if (error instanceof CallInterrupted && (error.reason === "aborted" || callerDeadline)) return mapped;
    if (error instanceof CallInterrupted || isConnectionError(error)) {
      // A client that lost its brokers or hung is replaced on the next call; the calls still using it
      // finish on it first. Several calls failing on the same client count as one failure.
      if (!lease) return mapped;
      const connecting = !lease.isConnected();
      if (!lease.retire()) return mapped;
      const why =
        error instanceof CallInterrupted ? error.detail : (rootKafkaError(error)?.message ?? mapped.message);
      // Only a failed connect starts the backoff: a request lost on a working client is not an outage.
      this.health.failed(cluster.key, mapped.message, connecting ? why : undefined);
    } else {
      // A client whose connect was refused (credentials, certificate) keeps failing with that answer:
      // the next call makes a new one, which sees a fix made on the brokers.
      if (lease && !lease.isConnected()) lease.retire();
      // The cluster answered (with a refusal): it is reachable.
      if (isKafkaError(error)) this.health.connected(cluster.key);
    }
    return mapped;
  }

  /**
   * The cluster's settings, parsed again only when its config changed: every call needs them, and
   * parsing (TLS PEMs, a hash) on each observation of each binding would be work for nothing.
   */
  resolve(target: ClusterTarget): ResolvedCluster {
    const config = JSON.stringify(target.config);
    const known = this.resolved.get(clusterKey(target));
    if (known?.config === config) return known.cluster;
    const cluster = resolveCluster(target);
    this.resolved.set(cluster.key, { config, cluster });
    return cluster;
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.close(), this.offsets.close()]);
  }
}

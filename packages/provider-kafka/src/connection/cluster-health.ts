import { retryDelayMs, type RetryDelayOptions } from "@stream-registry/core";
import type { JsonValue } from "@stream-registry/provider-api";

/** What the provider knows of one cluster's connectivity, shown with every probe. */
export interface ClusterHealth {
  lastProbeAt?: Date;
  latencyMs?: number;
  brokerCount?: number;
  lastError?: string;
  lastErrorAt?: Date;
  /** Why the last connection attempt failed, e.g. "Connection error: connect ECONNREFUSED 10.0.0.1:9092". */
  lastConnectionError?: string;
  /** Connection failures since the last success; drives the reconnect backoff. */
  consecutiveFailures: number;
  /** No new connection is tried before this instant. */
  reconnectAt?: Date;
}

/**
 * Tracks health per cluster and spaces reconnect attempts with randomized exponential backoff
 * (core's retryDelayMs), so that many calls against a dead cluster do not each open connections.
 */
export class ClusterHealthBook {
  private readonly clusters = new Map<string, ClusterHealth>();

  constructor(
    private readonly backoff: RetryDelayOptions = {},
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): ClusterHealth {
    let health = this.clusters.get(key);
    if (!health) {
      health = { consecutiveFailures: 0 };
      this.clusters.set(key, health);
    }
    return health;
  }

  /** When the next connection attempt may be made, if it must wait. */
  waitUntil(key: string): Date | undefined {
    const at = this.clusters.get(key)?.reconnectAt;
    return at && at.getTime() > this.now() ? at : undefined;
  }

  connected(key: string): void {
    const health = this.get(key);
    health.consecutiveFailures = 0;
    delete health.reconnectAt;
  }

  probed(key: string, latencyMs: number, brokerCount: number): void {
    const health = this.get(key);
    Object.assign(health, { lastProbeAt: new Date(this.now()), latencyMs, brokerCount });
    this.connected(key);
  }

  /** Records a failed call; `connectionError` (why the cluster could not be reached) starts or extends the backoff. */
  failed(key: string, error: string, connectionError?: string): void {
    const health = this.get(key);
    health.lastError = error;
    health.lastErrorAt = new Date(this.now());
    if (connectionError === undefined) return;
    health.lastConnectionError = connectionError;
    health.consecutiveFailures += 1;
    health.reconnectAt = new Date(this.now() + retryDelayMs(health.consecutiveFailures, this.backoff));
  }

  /** The health as probe details. */
  details(key: string): { [key: string]: JsonValue } {
    const health = this.get(key);
    const details: { [key: string]: JsonValue } = { consecutiveFailures: health.consecutiveFailures };
    if (health.lastProbeAt) details.lastProbeAt = health.lastProbeAt.toISOString();
    if (health.lastError !== undefined) details.lastError = health.lastError;
    if (health.lastErrorAt) details.lastErrorAt = health.lastErrorAt.toISOString();
    return details;
  }
}

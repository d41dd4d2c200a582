import { setTimeout as sleep } from "node:timers/promises";
import type { Admin } from "kafkajs";
import type { AdminSpec, KafkaFactory } from "./admin-pool.ts";
import { DEFAULT_IDLE_CLOSE_MS, IdleTimer } from "./idle-timer.ts";

/**
 * Topics one offsets client may have read before it is replaced: kafkajs refreshes the metadata of
 * all of them before each later call, so the set must stay small.
 */
const TOPICS_PER_CLIENT = 64;

const CLOSE_TIMEOUT_MS = 2000;

interface OffsetsAdmin {
  admin: Admin;
  fingerprint: string;
  topics: Set<string>;
  /** Runs while it waits in `idle`. */
  idleTimer: IdleTimer;
}

interface ClusterOffsets {
  idle: OffsetsAdmin[];
  /** Clients made and not yet disconnected (idle or in use). */
  open: number;
  waiters: Array<() => void>;
}

/**
 * Admin clients used for kafkajs `fetchTopicOffsets` only, each by one call at a time.
 *
 * kafkajs' `fetchTopicOffsets` cannot share a client with other calls: it reads the topic's
 * partitions from the client's one metadata cache, which any concurrent `fetchTopicMetadata` of
 * another topic replaces (it then finds no partitions and fails with a TypeError on `low.pop()`), and
 * it adds the topic to the client for good, so every later call of that client refreshes its
 * metadata and fails with UNKNOWN_TOPIC_OR_PARTITION once it is deleted elsewhere. Here each client
 * serves one call at a time, is replaced after any failure and after TOPICS_PER_CLIENT topics, and at
 * most `perCluster` of them exist per cluster. A client left unused for `idleMs` is disconnected, and
 * a cluster with no clients left is forgotten.
 */
export class OffsetsAdmins {
  private readonly clusters = new Map<string, ClusterOffsets>();

  constructor(
    private readonly factory: KafkaFactory,
    private readonly idleMs = DEFAULT_IDLE_CLOSE_MS,
    private readonly perCluster = 4,
  ) {}

  /** Runs `work` with a client of `key` that nothing else uses meanwhile. */
  async use<T>(key: string, spec: AdminSpec, topic: string, work: (admin: Admin) => Promise<T>): Promise<T> {
    const cluster = this.cluster(key);
    const client = await this.take(key, cluster, spec);
    let failed = true;
    try {
      client.topics.add(topic);
      const result = await work(client.admin);
      failed = false;
      return result;
    } finally {
      this.give(key, cluster, client, failed);
    }
  }

  private cluster(key: string): ClusterOffsets {
    let cluster = this.clusters.get(key);
    if (!cluster) {
      cluster = { idle: [], open: 0, waiters: [] };
      this.clusters.set(key, cluster);
    }
    return cluster;
  }

  private async take(key: string, cluster: ClusterOffsets, spec: AdminSpec): Promise<OffsetsAdmin> {
    for (;;) {
      const idle = cluster.idle.pop();
      idle?.idleTimer.stop();
      if (idle && idle.fingerprint === spec.fingerprint) return idle;
      if (idle) {
        // Made with an older config of the cluster.
        this.drop(cluster, idle);
        continue;
      }
      if (cluster.open < this.perCluster) break;
      await new Promise<void>((resolve) => cluster.waiters.push(resolve));
    }
    cluster.open += 1;
    const client: OffsetsAdmin = {
      admin: this.factory(spec.config()).admin(),
      fingerprint: spec.fingerprint,
      topics: new Set(),
      idleTimer: new IdleTimer(this.idleMs, () => this.closeIdle(key, cluster, client)),
    };
    try {
      await client.admin.connect();
    } catch (error) {
      this.drop(cluster, client);
      throw error;
    }
    return client;
  }

  private give(key: string, cluster: ClusterOffsets, client: OffsetsAdmin, failed: boolean): void {
    // A failed client may hold a deleted topic or half-read metadata; a closed pool keeps nothing.
    if (failed || client.topics.size >= TOPICS_PER_CLIENT || this.clusters.get(key) !== cluster) {
      this.drop(cluster, client);
      return;
    }
    cluster.idle.push(client);
    client.idleTimer.start();
    cluster.waiters.shift()?.();
  }

  private closeIdle(key: string, cluster: ClusterOffsets, client: OffsetsAdmin): void {
    const at = cluster.idle.indexOf(client);
    if (at < 0) return;
    cluster.idle.splice(at, 1);
    this.drop(cluster, client);
    // No client of it is left, so no call waits for one either: forget the cluster's entry.
    if (cluster.open === 0 && this.clusters.get(key) === cluster) {
      this.clusters.delete(key);
    }
  }

  private drop(cluster: ClusterOffsets, client: OffsetsAdmin): void {
    client.idleTimer.stop();
    cluster.open -= 1;
    client.admin.disconnect().catch(() => undefined);
    cluster.waiters.shift()?.();
  }

  /** Clients open now, over all clusters (idle or in use). */
  get openCount(): number {
    return [...this.clusters.values()].reduce((sum, cluster) => sum + cluster.open, 0);
  }

  /** Disconnects the idle clients; ones in use are disconnected when their call ends. */
  async close(): Promise<void> {
    const clusters = [...this.clusters.values()];
    this.clusters.clear();
    await Promise.allSettled(
      clusters.flatMap((cluster) => {
        const idle = cluster.idle.splice(0);
        cluster.open -= idle.length;
        for (const client of idle) client.idleTimer.stop();
        for (const wake of cluster.waiters.splice(0)) wake();
        return idle.map((client) => Promise.race([client.admin.disconnect(), sleep(CLOSE_TIMEOUT_MS)]));
      }),
    );
  }
}

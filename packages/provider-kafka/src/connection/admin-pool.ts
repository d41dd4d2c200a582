import { setTimeout as sleep } from "node:timers/promises";
import type { Admin, Kafka as KafkaClient, KafkaConfig } from "kafkajs";
import { Kafka } from "../kafkajs.ts";

/** Makes the kafkajs client of a cluster; tests wrap it to count clients and connections. */
export type KafkaFactory = (config: KafkaConfig) => KafkaClient;

export const defaultKafkaFactory: KafkaFactory = (config) => new Kafka(config);

const CLOSE_TIMEOUT_MS = 2000;

interface Pooled {
  fingerprint: string;
  admin: Admin;
  /** Settles when the first connect does; every caller waits on the same one. */
  ready: Promise<void>;
}

/**
 * One kafkajs admin client per cluster, reused across calls. A cluster is keyed by its registry
 * identity; the fingerprint (a hash of its connection settings) changing means its config changed,
 * so the old client is closed and a new one made.
 */
export class AdminPool {
  private readonly admins = new Map<string, Pooled>();
  private created = 0;

  constructor(private readonly factory: KafkaFactory) {}

  /** The connected admin of `key`, connecting it first when needed. */
  async acquire(key: string, fingerprint: string, config: () => KafkaConfig): Promise<Admin> {
    let pooled = this.admins.get(key);
    if (pooled && pooled.fingerprint !== fingerprint) {
      this.discard(key, pooled.admin);
      pooled = undefined;
    }
    if (!pooled) {
      const admin = this.factory(config()).admin();
      this.created += 1;
      pooled = { fingerprint, admin, ready: admin.connect() };
      this.admins.set(key, pooled);
    }
    const current = pooled;
    try {
      await current.ready;
    } catch (error) {
      this.discard(key, current.admin);
      throw error;
    }
    return current.admin;
  }

  /** Whether `key` has a client now (connected or connecting). */
  has(key: string): boolean {
    return this.admins.has(key);
  }

  /**
   * Drops `admin` (by default whatever is pooled under `key`) if it is still the one pooled there, and
   * disconnects it in the background.
   */
  discard(key: string, admin: Admin | undefined = this.admins.get(key)?.admin): void {
    if (!admin) return;
    if (this.admins.get(key)?.admin === admin) this.admins.delete(key);
    admin.disconnect().catch(() => undefined);
  }

  /** Admin clients made so far (a reused client is counted once). */
  get createdCount(): number {
    return this.created;
  }

  get openCount(): number {
    return this.admins.size;
  }

  async close(): Promise<void> {
    const all = [...this.admins.values()];
    this.admins.clear();
    // A client stuck connecting to a hung broker must not hold up the registry's shutdown.
    await Promise.allSettled(
      all.map((pooled) => Promise.race([pooled.admin.disconnect(), sleep(CLOSE_TIMEOUT_MS)])),
    );
  }
}

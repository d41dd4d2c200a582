import { setTimeout as sleep } from "node:timers/promises";
import type { Admin, Kafka as KafkaClient, KafkaConfig } from "kafkajs";
import { Kafka } from "../kafkajs.ts";
import { DEFAULT_IDLE_CLOSE_MS, IdleTimer } from "./idle-timer.ts";

/** Makes the kafkajs client of a cluster; tests wrap it to count clients and connections. */
export type KafkaFactory = (config: KafkaConfig) => KafkaClient;

export const defaultKafkaFactory: KafkaFactory = (config) => new Kafka(config);

const CLOSE_TIMEOUT_MS = 2000;

/** How a pooled client is made: its settings hash, its kafkajs config and how long a retired one may drain. */
export interface AdminSpec {
  fingerprint: string;
  config: () => KafkaConfig;
  /** A retired client is disconnected once its calls are done, or after this long at the latest. */
  drainMs: number;
}

class PooledAdmin {
  users = 0;
  retired = false;
  connected = false;
  private drainTimer: NodeJS.Timeout | undefined;
  private readonly idle: IdleTimer;
  /** Settles when the first connect does; every caller waits on the same one. */
  readonly ready: Promise<void>;

  constructor(
    readonly admin: Admin,
    readonly fingerprint: string,
    readonly drainMs: number,
    idleMs: number,
    onIdle: () => void,
  ) {
    this.idle = new IdleTimer(idleMs, onIdle);
    this.ready = admin.connect().then(() => {
      this.connected = true;
    });
    // Every caller awaits `ready` itself; this keeps a failed connect nobody awaits any more quiet.
    this.ready.catch(() => undefined);
  }

  /** Stops it for new calls; it disconnects when the last call using it is done (or the drain time ends). */
  retire(): void {
    if (this.retired) return;
    this.retired = true;
    if (this.users === 0) {
      void this.disconnect();
      return;
    }
    // Calls still using it started before now, so their own deadlines (at most drainMs) are over by then.
    this.drainTimer = setTimeout(() => void this.disconnect(), this.drainMs);
    this.drainTimer.unref();
  }

  use(): void {
    this.users += 1;
    this.idle.stop();
  }

  release(): void {
    this.users -= 1;
    if (this.users > 0) return;
    if (this.retired) void this.disconnect();
    else this.idle.start();
  }

  disconnect(): Promise<void> {
    clearTimeout(this.drainTimer);
    this.idle.stop();
    return this.admin.disconnect().catch(() => undefined);
  }
}

/** One call's use of a pooled admin client. */
export interface AdminLease {
  readonly admin: Admin;
  /** Resolves when the client is connected; rejects with the connect error. */
  readonly ready: Promise<void>;
  /** Whether the client had connected when this was asked (a failure before that is a failed connect). */
  isConnected(): boolean;
  /**
   * Takes the client out of the pool (the next call gets a new one) without cutting off the calls still
   * using it. True for the first caller that retires it, so that one failure is counted once.
   */
  retire(): boolean;
  /** Ends this call's use; idempotent. */
  release(): void;
}

/**
 * One kafkajs admin client per cluster, shared by all concurrent calls. A cluster is keyed by its
 * registry identity; the fingerprint (a hash of its connection settings) changing means its config
 * changed, so the old client is retired and a new one made. A client is never disconnected under
 * calls that still use it: a retired client leaves the pool at once but disconnects only when its
 * last call is done (or its drain time ends, by which all their deadlines have passed). A client
 * unused for `idleMs` is retired the same way, so that the clients of a cluster no longer used (e.g.
 * deleted) do not stay connected; the next call makes a new one.
 */
export class AdminPool {
  private readonly admins = new Map<string, PooledAdmin>();
  private readonly retiring = new Set<PooledAdmin>();
  private created = 0;

  constructor(
    private readonly factory: KafkaFactory,
    private readonly idleMs = DEFAULT_IDLE_CLOSE_MS,
  ) {}

  /** A lease on the admin of `key`, connecting a new one first when needed. */
  lease(key: string, spec: AdminSpec): AdminLease {
    let pooled = this.admins.get(key);
    if (pooled && pooled.fingerprint !== spec.fingerprint) {
      this.retire(key, pooled);
      pooled = undefined;
    }
    if (!pooled) {
      const admin = this.factory(spec.config()).admin();
      // Its timer only runs while no call uses it, so retiring it then disconnects it at once.
      const made: PooledAdmin = new PooledAdmin(admin, spec.fingerprint, spec.drainMs, this.idleMs, () =>
        this.retire(key, made),
      );
      pooled = made;
      this.created += 1;
      this.admins.set(key, pooled);
    }
    const current = pooled;
    current.use();
    let released = false;
    return {
      admin: current.admin,
      ready: current.ready,
      isConnected: () => current.connected,
      retire: () => this.retire(key, current),
      release: () => {
        if (released) return;
        released = true;
        current.release();
        if (current.retired && current.users === 0) this.retiring.delete(current);
      },
    };
  }

  private retire(key: string, pooled: PooledAdmin): boolean {
    if (pooled.retired) return false;
    if (this.admins.get(key) === pooled) this.admins.delete(key);
    pooled.retire();
    if (pooled.users > 0) this.retiring.add(pooled);
    return true;
  }

  /** Whether `key` has a client now (connected or connecting). */
  has(key: string): boolean {
    return this.admins.has(key);
  }

  /** Admin clients made so far (a reused client is counted once). */
  get createdCount(): number {
    return this.created;
  }

  /** Clients in the pool (retired ones still draining are not counted). */
  get openCount(): number {
    return this.admins.size;
  }

  /** Disconnects every client, in use or not: the registry is shutting down. The pool works again after. */
  async close(): Promise<void> {
    const all = [...this.admins.values(), ...this.retiring];
    this.admins.clear();
    this.retiring.clear();
    // A client stuck connecting to a hung broker must not hold up the registry's shutdown.
    await Promise.allSettled(
      all.map((pooled) => {
        pooled.retired = true;
        return Promise.race([pooled.disconnect(), sleep(CLOSE_TIMEOUT_MS)]);
      }),
    );
  }
}

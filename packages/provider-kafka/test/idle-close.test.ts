import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { describe, expect, it, vi } from "vitest";
import { AdminPool, type AdminSpec } from "../src/connection/admin-pool.ts";
import { createKafkaProvider } from "../src/index.ts";
import {
  bindingRequest,
  clusterTarget,
  context,
  countingFactory,
  countingProvider,
  topicName,
} from "./support/kafka-targets.ts";

const kafka = useSharedKafkaClusters();

const IDLE_MS = 200;
const waitLong = { timeout: 10_000, interval: 50 };

function spec(): AdminSpec {
  return {
    fingerprint: "f1",
    config: () => ({ brokers: [kafka.at(0).bootstrapServers], clientId: "idle-test" }),
    drainMs: 10_000,
  };
}

/**
 * Waits until an idle timer started now has fired: a "witness" client released now is closed. Timers
 * of the same length fire in the order they were started, so any idle timer started before this
 * call has fired by then; no sleep races the one under test.
 */
async function idleTimePassed(pool: AdminPool, counts: { disconnects: number }): Promise<void> {
  const witness = pool.lease("witness", spec());
  await witness.ready;
  const before = counts.disconnects;
  witness.release();
  await vi.waitFor(() => {
    expect(pool.has("witness")).toBe(false);
    expect(counts.disconnects).toBe(before + 1);
  }, waitLong);
}

describe("idle admin clients", () => {
  it("closes a client used and released after the idle time; the next call makes a new one", async () => {
    const { factory, counts } = countingFactory();
    const pool = new AdminPool(factory, IDLE_MS);
    try {
      const lease = pool.lease("k", spec());
      await lease.ready;
      expect((await lease.admin.describeCluster()).brokers).toHaveLength(1);
      lease.release();
      expect(pool.openCount).toBe(1);

      await vi.waitFor(() => {
        expect(pool.openCount).toBe(0);
        expect(counts.disconnects).toBe(1);
      }, waitLong);

      const next = pool.lease("k", spec());
      expect(next.admin).not.toBe(lease.admin);
      await next.ready;
      expect((await next.admin.describeCluster()).brokers).toHaveLength(1);
      expect(pool.createdCount).toBe(2);
      next.release();
    } finally {
      await pool.close();
    }
  });

  it("never closes a client while a call still uses it", async () => {
    const { factory, counts } = countingFactory();
    const pool = new AdminPool(factory, IDLE_MS);
    try {
      const held = pool.lease("k", spec());
      const other = pool.lease("k", spec());
      await held.ready;
      // One of two users done: the client is still in use, so no idle timer may start.
      other.release();
      await idleTimePassed(pool, counts);

      expect(pool.has("k")).toBe(true);
      expect(counts.disconnects).toBe(1);
      expect((await held.admin.describeCluster()).brokers).toHaveLength(1);
      held.release();
      await vi.waitFor(() => expect(pool.has("k")).toBe(false), waitLong);
      expect(counts.disconnects).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("keeps a client leased again before its idle time ends", async () => {
    const { factory, counts } = countingFactory();
    const pool = new AdminPool(factory, IDLE_MS);
    try {
      const first = pool.lease("k", spec());
      await first.ready;
      first.release();
      // Its idle timer runs now; this lease must cancel it.
      const second = pool.lease("k", spec());
      expect(second.admin).toBe(first.admin);
      await idleTimePassed(pool, counts);

      expect(pool.has("k")).toBe(true);
      expect((await second.admin.describeCluster()).brokers).toHaveLength(1);
      expect(pool.createdCount).toBe(2); // "k" once, and the witness
      second.release();
      await vi.waitFor(() => expect(pool.has("k")).toBe(false), waitLong);
    } finally {
      await pool.close();
    }
  });

  it("closes a provider's idle shared and offsets clients, and works again after", async () => {
    const { provider, counts } = countingProvider({ idleCloseMs: IDLE_MS });
    const { pool, offsets } = provider.connections;
    const target = clusterTarget(kafka.at(0).bootstrapServers, "idle");
    const name = topicName("idle");
    try {
      await provider.infrastructure.createStreamBinding(bindingRequest(name, target, {}), context());
      // An observation also reads offsets, on a client of its own.
      expect(
        (await provider.infrastructure.observeStreamBinding(name, target, context()))?.details,
      ).toMatchObject({ records: 0 });
      expect(pool.openCount).toBe(1);
      expect(offsets.openCount).toBeGreaterThanOrEqual(1);

      await vi.waitFor(() => {
        expect(pool.openCount).toBe(0);
        expect(offsets.openCount).toBe(0);
        // Every kafkajs admin the provider connected is disconnected.
        expect(counts.disconnects).toBe(counts.connects);
      }, waitLong);

      const created = pool.createdCount;
      expect(
        (await provider.infrastructure.observeStreamBinding(name, target, context()))?.details,
      ).toMatchObject({ records: 0 });
      expect(pool.createdCount).toBe(created + 1);
    } finally {
      await provider.close();
    }
  });

  it("refuses an idle time setTimeout cannot keep", () => {
    for (const idleCloseMs of [0, 1.5, 2 ** 31]) {
      expect(() => createKafkaProvider({ idleCloseMs })).toThrow(
        `idleCloseMs must be an integer from 1 to 2147483647 (ms), got ${idleCloseMs}`,
      );
    }
  });
});

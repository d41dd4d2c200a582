import type { BindingObservation } from "@stream-registry/provider-api";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { describe, expect, it } from "vitest";
import {
  bindingRequest,
  clusterTarget,
  context,
  countingFactory,
  countingProvider,
  eventually,
  ownAdmin,
  topicName,
} from "./support/kafka-targets.ts";
import { AdminPool } from "../src/connection/admin-pool.ts";

const kafka = useSharedKafkaClusters();

/** Why each rejected call failed: an empty list means every call succeeded on its first attempt. */
function failures(results: PromiseSettledResult<unknown>[]): string[] {
  return results
    .filter((result): result is PromiseRejectedResult => result.status === "rejected")
    .map((result) => String((result.reason as Error)?.message ?? result.reason));
}

function fulfilled<T>(results: PromiseSettledResult<T>[]): T[] {
  return results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
}

describe("the admin pool", () => {
  it("retires a client without cutting off the calls still using it", async () => {
    const { factory, counts } = countingFactory();
    const pool = new AdminPool(factory);
    const spec = {
      fingerprint: "f1",
      config: () => ({ brokers: [kafka.at(0).bootstrapServers], clientId: "pool-test" }),
      drainMs: 10_000,
    };
    try {
      const first = pool.lease("k", spec);
      const second = pool.lease("k", spec);
      expect(second.admin).toBe(first.admin);
      await first.ready;
      const inFlight = first.admin.fetchTopicMetadata({ topics: [] });
      // One call's failure retires the client: counted once, and the next call gets a new one.
      expect(first.retire()).toBe(true);
      expect(second.retire()).toBe(false);
      expect(pool.has("k")).toBe(false);
      const third = pool.lease("k", spec);
      expect(third.admin).not.toBe(first.admin);

      // The retired client keeps serving the calls that hold it.
      await inFlight;
      first.release();
      expect((await second.admin.describeCluster()).brokers).toHaveLength(1);
      expect(counts.disconnects).toBe(0);
      second.release();
      await eventually(async () => expect(counts.disconnects).toBe(1));
      await third.ready;
      third.release();
      expect(pool.createdCount).toBe(2);
    } finally {
      await pool.close();
    }
  });
});

describe("concurrent calls on one provider", () => {
  it("creates 40 topics concurrently, each on its first attempt, with its partitions and an observation", async () => {
    const { provider } = countingProvider();
    const target = clusterTarget(kafka.at(0).bootstrapServers, "concurrent");
    const names = Array.from({ length: 40 }, () => topicName("concurrent"));
    try {
      const results = await Promise.allSettled(
        names.map((name) =>
          provider.infrastructure.createStreamBinding(
            bindingRequest(name, target, { "apache.kafka": { partitions: 3, replication: 1 } }),
            context(),
          ),
        ),
      );
      expect(failures(results)).toEqual([]);
      for (const [i, observation] of fulfilled(results).entries()) {
        expect(observation.message).toBe(
          `created topic "${names[i]}": 3 partition(s), replication factor 1, 0 record(s)`,
        );
        expect(observation.details).toMatchObject({ partitions: 3, replicationFactor: 1, records: 0 });
      }

      await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      expect(topics.map((topic) => [topic.name, topic.partitions.length]).sort()).toEqual(
        names.map((name) => [name, 3]).sort(),
      );

      // Observing them all at once, interleaved with describes of missing topics, works too.
      const observed = await Promise.allSettled(
        names.flatMap((name) => [
          provider.infrastructure.observeStreamBinding(name, target, context()),
          provider.infrastructure.observeStreamBinding(topicName("missing"), target, context()),
        ]),
      );
      expect(failures(observed)).toEqual([]);
      const values = fulfilled(observed);
      expect(values.filter((value) => value === null)).toHaveLength(40);
      expect(
        values.filter((value): value is BindingObservation => value !== null).map((v) => v.details),
      ).toEqual(names.map(() => ({ partitions: 3, replicationFactor: 1, configs: {}, records: 0 })));
      expect(provider.connections.health.details("/\u0000concurrent")).toMatchObject({
        consecutiveFailures: 0,
      });
    } finally {
      await provider.close();
    }
  });

  it("keeps other calls working while one recovers from a topic deleted behind its back", async () => {
    const { provider } = countingProvider();
    const infra = provider.infrastructure;
    const target = clusterTarget(kafka.at(0).bootstrapServers, "recovering");
    const request = (name: string) =>
      bindingRequest(name, target, { "apache.kafka": { partitions: 2, replication: 1 } });
    try {
      // Observed first, so that a client which remembers the topics it read offsets of knows them.
      const gone = Array.from({ length: 4 }, () => topicName("gone"));
      await Promise.all(gone.map((name) => infra.createStreamBinding(request(name), context())));
      for (const name of gone) expect((await infra.observeStreamBinding(name, target, context()))?.details);
      {
        await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
        await admin.deleteTopics({ topics: gone });
        await eventually(async () => {
          const listed = new Set(await admin.listTopics());
          expect(gone.filter((name) => listed.has(name))).toEqual([]);
        });
      }

      // Eight workers keep creating topics (as the reconciler does) while the deleted ones are
      // observed and created again in the middle of the run.
      const fresh = Array.from({ length: 32 }, () => topicName("beside"));
      let next = 0;
      let recovery: Promise<PromiseSettledResult<BindingObservation>[]> | undefined;
      const recover = () =>
        Promise.allSettled(
          gone.map(async (name) => {
            expect(await infra.observeStreamBinding(name, target, context())).toBeNull();
            return eventually(() => infra.updateStreamBinding(request(name), context()));
          }),
        );
      const workers = Array.from({ length: 8 }, async () => {
        const settled: PromiseSettledResult<BindingObservation>[] = [];
        for (let i = next++; i < fresh.length; i = next++) {
          if (i === 8) recovery = recover();
          const [result] = await Promise.allSettled([
            infra.createStreamBinding(request(fresh[i]!), context()),
          ]);
          settled.push(result!);
        }
        return settled;
      });
      const created = (await Promise.all(workers)).flat();
      const results = [...created, ...(await recovery!)];
      expect(failures(results)).toEqual([]);
      const observations = fulfilled(results) as BindingObservation[];
      expect(observations.map((observation) => observation.details?.partitions)).toEqual(
        [...fresh, ...gone].map(() => 2),
      );
      await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
      const listed = new Set(await admin.listTopics());
      expect([...fresh, ...gone].filter((name) => !listed.has(name))).toEqual([]);
      expect(observations.slice(fresh.length).map((observation) => observation.message)).toEqual(
        gone.map((name) => `created topic "${name}": 2 partition(s), replication factor 1, 0 record(s)`),
      );
    } finally {
      await provider.close();
    }
  });
});

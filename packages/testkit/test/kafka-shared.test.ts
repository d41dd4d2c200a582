import { describe, expect, inject, it } from "vitest";
import { kafkaClient, sharedKafkaClusters } from "../src/index.ts";
import { useSharedKafkaClusters } from "../src/kafka/vitest.ts";

describe("shared Kafka clusters", () => {
  const kafka = useSharedKafkaClusters();

  it("are provided by the global setup and answer", async () => {
    const spec = inject("kafkaShared");
    expect(spec?.ownerPid).toBeGreaterThan(0);
    expect(kafka.all).toHaveLength(2);
    for (const cluster of kafka.all) {
      expect(cluster.dir.startsWith(spec?.dir ?? "?")).toBe(true);
      const admin = kafkaClient(cluster.bootstrapServers).admin();
      await admin.connect();
      try {
        expect((await admin.describeCluster()).clusterId).toBe(cluster.clusterId);
      } finally {
        await admin.disconnect();
      }
    }
  });

  it("are the same brokers for every file that asks", async () => {
    const spec = inject("kafkaShared");
    if (spec === undefined) throw new Error("the testkit project must list the Kafka global setup");
    const again = await sharedKafkaClusters(spec);
    expect(again.map((cluster) => cluster.bootstrapServers)).toEqual(
      kafka.all.map((cluster) => cluster.bootstrapServers),
    );
  });
});

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kafkaClient, startKafkaClusters } from "../src/index.ts";
import type { KafkaCluster } from "../src/index.ts";
import { dumpKafkaLogsOnFailure } from "../src/kafka/vitest.ts";
import { groupAlive, startOwner } from "./support/processes.ts";

function brokerPid(cluster: KafkaCluster): number {
  const state = JSON.parse(readFileSync(join(cluster.dir, "cluster.json"), "utf8")) as { pid: number | null };
  if (state.pid === null) throw new Error(`${cluster.name} has no pid`);
  return state.pid;
}

async function topics(cluster: KafkaCluster): Promise<string[]> {
  // No retries: a stopped broker should fail the call at once, not after kafkajs' backoff.
  const admin = kafkaClient(cluster.bootstrapServers, { retry: { retries: 0 } }).admin();
  await admin.connect();
  try {
    return await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

describe("private Kafka clusters", () => {
  let clusters: KafkaCluster[] = [];
  beforeAll(async () => {
    clusters = await startKafkaClusters(2);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(clusters.map((cluster) => cluster[Symbol.asyncDispose]()));
  }, 60_000);
  dumpKafkaLogsOnFailure(() => clusters);

  it("are distinct brokers on their own ports", async () => {
    const [one, two] = clusters as [KafkaCluster, KafkaCluster];
    expect(one.port).not.toBe(two.port);
    expect(one.bootstrapServers).toBe(`127.0.0.1:${one.port}`);
    expect(one.clusterId).not.toBe(two.clusterId);
    const admin = kafkaClient(one.bootstrapServers).admin();
    await admin.connect();
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic: "only-on-one", numPartitions: 3 }],
      });
      const described = await admin.describeCluster();
      expect(described.clusterId).toBe(one.clusterId);
    } finally {
      await admin.disconnect();
    }
    expect(await topics(one)).toContain("only-on-one");
    expect(await topics(two)).not.toContain("only-on-one");
  });

  it("keep their port and topics across stop and start", async () => {
    const [one] = clusters as [KafkaCluster];
    const port = one.port;
    await one.stop();
    expect(one.isRunning()).toBe(false);
    await expect(topics(one)).rejects.toThrow();
    await one.start();
    expect(one.isRunning()).toBe(true);
    expect(one.port).toBe(port);
    expect(await topics(one)).toContain("only-on-one");
    expect(one.logTail(200)).toMatch(/Kafka Server started/);
  });

  it("are gone with their directories once disposed", async () => {
    const [, two] = clusters as [KafkaCluster, KafkaCluster];
    const pid = brokerPid(two);
    expect(groupAlive(pid)).toBe(true);
    await two[Symbol.asyncDispose]();
    expect(groupAlive(pid)).toBe(false);
    expect(existsSync(two.dir)).toBe(false);
  });
});

describe("a broker whose owner process dies", () => {
  it("is stopped by its watchdog", async () => {
    const fixture = join(import.meta.dirname, "fixtures", "start-cluster-and-wait.ts");
    const { owner, reported } = await startOwner<{ dir: string }>(fixture);
    const { dir } = reported;
    const state = JSON.parse(readFileSync(join(dir, "cluster.json"), "utf8")) as {
      pid: number;
      ownerPids: number[];
    };
    expect(state.ownerPids).toEqual([owner.pid]);
    expect(groupAlive(state.pid)).toBe(true);
    owner.kill("SIGKILL");
    const deadline = Date.now() + 30_000;
    while (groupAlive(state.pid) && Date.now() < deadline) await sleep(200);
    expect(groupAlive(state.pid)).toBe(false);
    const { rm } = await import("node:fs/promises");
    await rm(dir, { recursive: true, force: true });
  }, 120_000);
});

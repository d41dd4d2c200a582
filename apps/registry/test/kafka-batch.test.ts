import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { kafkaClient, mutate, seed, DELETE_BINDING, eventually } from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const STATUSES = `query($cluster: String!) { bindings(filter: { cluster: $cluster }, first: 100) {
  nodes { stream { name } status { phase message } } } }`;

interface Node {
  stream: { name: string };
  status: { phase: string; message: string | null };
}

async function statuses(r: TestRegistry, cluster: string): Promise<Map<string, Node["status"]>> {
  const { bindings } = await r.query<{ bindings: { nodes: Node[] } }>(STATUSES, { cluster });
  return new Map(bindings.nodes.map((node) => [node.stream.name, node.status]));
}

async function topicNames(bootstrap: string): Promise<Set<string>> {
  const admin = kafkaClient(bootstrap).admin();
  await admin.connect();
  try {
    return new Set(await admin.listTopics());
  } finally {
    await admin.disconnect();
  }
}

/** The kernel's "batch realized" lines: how many jobs each batch took. */
function batchSizes(r: TestRegistry): number[] {
  return r.logs
    .flatMap((chunk) => chunk.split("\n"))
    .filter((line) => line.includes('"batch realized"'))
    .map((line) => JSON.parse(line) as { jobs?: number })
    .map((entry) => entry.jobs!);
}

// Bindings realized and removed in batches (one CreateTopics, one DeleteTopics) by a registry on a
// real broker, where one topic of the batch is refused by the broker itself.
describe("a registry realizing and deleting many bindings of one Kafka cluster at once", () => {
  const kafka = useSharedKafkaClusters();
  const registry = useTestRegistry("postgres", { LOG_LEVEL: "debug", RECONCILER_RESYNC_MS: "0" });
  const suffix = randomBytes(3).toString("hex");

  it("creates them in one batch, the broker's refusal of one topic failing only its binding", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const cluster = await seed(r).cluster({
      name: `batch_${suffix}`,
      provider: "kafka",
      config: { "apache.kafka": { "bootstrap.servers": bootstrap } },
    });
    const names = Array.from({ length: 12 }, (_, i) => `batched_${suffix}_${i}`);
    const refused = names[7]!;
    // The reconciler waits while the bindings are written, so that it finds them all due at once.
    await r.reconciler.stop(5_000);
    for (const name of names) {
      const config: Record<string, Record<string, unknown>> = {
        "apache.kafka": { partitions: 2, replication: 1 },
      };
      if (name === refused) config["apache.kafka.topic"] = { "segment.bytes": 10 };
      await seed(r).stream({ name, config });
      await seed(r).binding({ stream: name, cluster });
    }
    r.reconciler.start();

    const settled = await eventually(
      async () => {
        const now = await statuses(r, cluster.name);
        return [...now.values()].every((s) => s.phase === "ONLINE" || s.phase === "FAILED") ? now : undefined;
      },
      60_000,
      "every binding ONLINE or FAILED",
    );
    for (const name of names) {
      expect(settled.get(name)?.phase, name).toBe(name === refused ? "FAILED" : "ONLINE");
    }
    // The broker's refusal (segment.bytes is below its minimum), naming the topic.
    expect(settled.get(refused)?.message).toMatch(new RegExp(`^create topic "${refused}" .*INVALID_CONFIG`));
    expect(batchSizes(r)).toContain(names.length);
    const topics = await topicNames(bootstrap);
    expect(names.filter((name) => topics.has(name))).toEqual(names.filter((name) => name !== refused));

    // Deleted at once: the realized ones' topics go in one batch, the refused one (nothing made)
    // leaves the broker alone; every binding's row goes.
    const before = batchSizes(r).length;
    await r.reconciler.stop(5_000);
    for (const name of names) {
      await mutate(r, DELETE_BINDING, { input: { stream: name, cluster: cluster.name } });
    }
    r.reconciler.start();
    await eventually(
      async () => ((await statuses(r, cluster.name)).size === 0 ? true : undefined),
      60_000,
      "every binding gone",
    );
    expect(batchSizes(r).slice(before)).toContain(names.length - 1);
    const left = await topicNames(bootstrap);
    expect(names.filter((name) => left.has(name))).toEqual([]);
  });
});

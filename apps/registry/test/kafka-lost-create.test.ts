import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  kafkaClient,
  type TestDatabase,
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  UPDATE_STREAM,
  type BindingView,
  eventually,
} from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { startTestRegistry, useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

import { deletesAsked } from "./fixtures/lossy-kafka-provider.ts";

const lossyKafkaModule = fileURLToPath(new URL("./fixtures/lossy-kafka-provider.ts", import.meta.url));
// A long retry delay: an update, which is reconciled at once, comes before the retry.
const LOSSY_ENV = {
  REGISTRY_PROVIDERS: lossyKafkaModule,
  RECONCILER_RETRY_BASE_MS: "60000",
  RECONCILER_RETRY_MAX_MS: "60000",
};

async function binding(r: TestRegistry, stream: string, cluster: string): Promise<BindingView | null> {
  const { binding } = await r.query<{ binding: BindingView | null }>(BINDING, { stream, cluster });
  return binding;
}

async function partitionsOf(bootstrap: string, topic: string): Promise<number> {
  const admin = kafkaClient(bootstrap).admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}

async function createForeignTopic(bootstrap: string, topic: string, partitions: number): Promise<void> {
  const admin = kafkaClient(bootstrap).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

async function setPartitions(r: TestRegistry, stream: string, partitions: number): Promise<void> {
  await r.query(UPDATE_STREAM, {
    input: { name: stream, config: { "apache.kafka": { partitions, replication: 1 } } },
  });
}

async function failedWith(r: TestRegistry, stream: string, cluster: string, text: string): Promise<void> {
  await eventually(
    async () => ((await binding(r, stream, cluster))?.status.message?.includes(text) ? true : undefined),
    30_000,
    `"${text}" on ${stream}`,
  );
}

/** Declares the lossy Kafka cluster, then binds a new stream to it. */
async function bindStream(
  r: TestRegistry,
  bootstrap: string,
  cluster: string,
  stream: string,
  partitions: number,
): Promise<void> {
  await r.query(DECLARE_CLUSTER, {
    input: {
      name: cluster,
      provider: "lossy-kafka",
      config: { "apache.kafka": { "bootstrap.servers": bootstrap } },
    },
  });
  await r.query(CREATE_STREAM, {
    input: { name: stream, config: { "apache.kafka": { partitions, replication: 1 } } },
  });
  await r.query(CREATE_BINDING, { input: { stream, cluster } });
}

async function deleteBinding(r: TestRegistry, stream: string, cluster: string): Promise<void> {
  await r.query(DELETE_BINDING, { input: { stream, cluster } });
  await eventually(
    async () => ((await binding(r, stream, cluster)) === null ? true : undefined),
    30_000,
    `the binding of ${stream} to go`,
  );
}

function settled(r: TestRegistry, stream: string, cluster: string): Promise<BindingView> {
  return eventually(
    async () => {
      const b = await binding(r, stream, cluster);
      return b && b.status.phase !== "PENDING" ? b : undefined;
    },
    30_000,
    `${stream} to settle`,
  );
}

// A create whose outcome is unknown (a timeout after the broker applied it, or a crash before the
// registry recorded it) is followed by a change of the desired state before the retry.
describe("a binding whose create outcome was lost, then changed", () => {
  const kafka = useSharedKafkaClusters();
  const registry = useTestRegistry("pglite", LOSSY_ENV);
  const suffix = randomBytes(3).toString("hex");
  const cluster = `lossy_${suffix}`;

  it("adopts the topic its own lost create made and updates it to the new desired state", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const stream = `lost_${suffix}`;
    await bindStream(r, bootstrap, cluster, stream, 2);
    await failedWith(r, stream, cluster, "was lost (test)");
    expect(await partitionsOf(bootstrap, stream)).toBe(2);

    await setPartitions(r, stream, 4);
    const done = await settled(r, stream, cluster);
    expect(done.status).toMatchObject({ phase: "ONLINE", generation: 2, observedGeneration: 2 });
    expect(done.status.message).toContain("partitions 2 -> 4");
    expect(await partitionsOf(bootstrap, stream)).toBe(4);
  });

  it("adopts a topic made late by an older create, though a newer one was sent since", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const stream = `late_${suffix}`;
    await bindStream(r, bootstrap, cluster, stream, 2);
    await failedWith(r, stream, cluster, "was not sent (test)");
    // Generation 2's create is sent, and meanwhile generation 1's lands: the topic has 2 partitions.
    await setPartitions(r, stream, 3);
    await failedWith(r, stream, cluster, "was lost (test)");
    expect(await partitionsOf(bootstrap, stream)).toBe(2);

    await setPartitions(r, stream, 5);
    const done = await settled(r, stream, cluster);
    expect(done.status).toMatchObject({ phase: "ONLINE", generation: 3, observedGeneration: 3 });
    expect(done.status.message).toContain("partitions 2 -> 5");
    expect(await partitionsOf(bootstrap, stream)).toBe(5);
  });

  it("refuses a foreign topic no create of its own accounts for, and leaves it alone when the binding is deleted", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const stream = `unsent_${suffix}`;
    await bindStream(r, bootstrap, cluster, stream, 2);
    await failedWith(r, stream, cluster, "was not sent (test)");
    await createForeignTopic(bootstrap, stream, 5);

    await setPartitions(r, stream, 6);
    const done = await settled(r, stream, cluster);
    expect(done.status.phase).toBe("FAILED");
    expect(done.status.message).toContain("with different settings");
    expect(done.status.message).toContain("partitions 5 (wanted 6)");

    await deleteBinding(r, stream, cluster);
    // Someone else's topic: never made by the registry, so not deleted by it.
    expect(deletesAsked().get(stream)).toBeUndefined();
    expect(await partitionsOf(bootstrap, stream)).toBe(5);
  });

  it("leaves a foreign topic alone when a binding whose create was never answered is deleted", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const stream = `unsent_del_${suffix}`;
    await bindStream(r, bootstrap, cluster, stream, 2);
    await failedWith(r, stream, cluster, "was not sent (test)");
    await createForeignTopic(bootstrap, stream, 5);

    await deleteBinding(r, stream, cluster);
    expect(deletesAsked().get(stream)).toBeUndefined();
    expect(await partitionsOf(bootstrap, stream)).toBe(5);
  });

  it("deletes the topic of a binding whose create was lost but carried out", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    const stream = `lost_del_${suffix}`;
    await bindStream(r, bootstrap, cluster, stream, 2);
    await failedWith(r, stream, cluster, "was lost (test)");

    await deleteBinding(r, stream, cluster);
    expect(deletesAsked().get(stream)).toBe(1);
  });
});

describe("a binding whose create outcome was lost, changed in a restarted registry", () => {
  const kafka = useSharedKafkaClusters();
  const open: { database?: TestDatabase; registries: TestRegistry[] } = { registries: [] };
  afterAll(async () => {
    for (const r of open.registries) await r.stop();
    await open.database?.drop();
  });

  it("reads the journal of the process before and adopts the topic", async () => {
    open.database = await createTestDatabase("postgres", "lostcreate");
    const start = async () => {
      const r = await startTestRegistry({ database: open.database!, env: LOSSY_ENV });
      open.registries.push(r);
      return r;
    };
    const bootstrap = kafka.at(0).bootstrapServers;
    const suffix = randomBytes(3).toString("hex");
    const [cluster, stream] = [`restart_${suffix}`, `lost_restart_${suffix}`];

    const before = await start();
    await bindStream(before, bootstrap, cluster, stream, 2);
    await failedWith(before, stream, cluster, "was lost (test)");
    await before.stop();
    open.registries.splice(open.registries.indexOf(before), 1);

    const after = await start();
    await setPartitions(after, stream, 4);
    const done = await settled(after, stream, cluster);
    expect(done.status).toMatchObject({ phase: "ONLINE", generation: 2, observedGeneration: 2 });
    expect(await partitionsOf(bootstrap, stream)).toBe(4);
  });
});

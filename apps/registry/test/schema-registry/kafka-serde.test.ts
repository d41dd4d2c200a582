import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SchemaRegistry, SchemaType } from "@kafkajs/confluent-schema-registry";
import {
  BINDING,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  eventually,
  kafkaClient,
} from "@stream-registry/testkit";
import { useRegistryProcess, useSharedKafkaClusters } from "@stream-registry/testkit/vitest";

/** The library's schema of any type (its overloads are per type; its type is not exported). */
type ConfluentSchema = Parameters<SchemaRegistry["register"]>[0];

const CREATE_TOKEN = `mutation($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret userErrors { code message } } }`;
const GRANT = `mutation($input: GrantInput!) { grant(input: $input) { userErrors { code message } } }`;

/**
 * Issue 12, Must 7: ordinary Confluent serde against the built-in schema registry, end to end with a
 * real Kafka cluster. A registry process creates the topic of a stream bound to the cluster; a
 * producer using @kafkajs/confluent-schema-registry (Basic auth with an API token) registers its
 * schemas at http://host:port/schema-registry and encodes records into the topic; a consumer
 * decodes them with the same library, fetching the schemas by the ids in the records.
 */
describe("Confluent serde through the built-in schema registry and a real Kafka topic", () => {
  const kafka = useSharedKafkaClusters();
  const registry = useRegistryProcess("pglite", { RECONCILER_RESYNC_MS: "500" });
  const suffix = randomBytes(3).toString("hex");
  const cluster = `kafka_${suffix}`;

  /** A stream bound to the shared cluster, its topic created by the registry; returns the topic. */
  async function boundTopic(name: string): Promise<string> {
    const r = registry();
    const stream = `${name}_${suffix}`;
    await r.query(CREATE_STREAM, { input: { name: stream, config: { "apache.kafka": { partitions: 1 } } } });
    await r.query(CREATE_BINDING, { input: { stream, cluster } });
    await eventually(
      async () => {
        const { binding } = await r.query<{ binding: { status: { phase: string } } | null }>(BINDING, {
          stream,
          cluster,
        });
        return binding?.status.phase === "ONLINE" ? true : undefined;
      },
      60_000,
      "the binding ONLINE",
    );
    return stream;
  }

  /** A client as a producer or consumer configures it: the registry's URL, an API token with the writer role. */
  async function serdeClient(): Promise<SchemaRegistry> {
    const r = registry();
    const name = `serde-${randomBytes(3).toString("hex")}`;
    const { createApiToken } = await r.query<{ createApiToken: { secret: string } }>(CREATE_TOKEN, {
      input: { name },
    });
    const { grant } = await r.query<{ grant: { userErrors: unknown[] } }>(GRANT, {
      input: { principal: `token:${name}`, role: "writer" },
    });
    expect(grant.userErrors).toEqual([]);
    const host = r.url.replace(/\/graphql$/, "/schema-registry");
    return new SchemaRegistry({ host, auth: { username: "producer", password: createApiToken.secret } });
  }

  /** Produces `values` encoded with schema `id` and reads them back decoded, with the raw bytes. */
  async function roundTrip(topic: string, values: Buffer[]): Promise<Buffer[]> {
    const client = kafkaClient(kafka.at(0).bootstrapServers);
    const producer = client.producer();
    await producer.connect();
    await producer.send({ topic, messages: values.map((value) => ({ value })) });
    await producer.disconnect();
    const consumer = client.consumer({ groupId: `serde-${randomBytes(4).toString("hex")}` });
    const received: Buffer[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.value) received.push(message.value);
        },
      });
      await eventually(
        async () => (received.length >= values.length ? true : undefined),
        60_000,
        "the records",
      );
    } finally {
      await consumer.disconnect();
    }
    return received;
  }

  /**
   * Registers two versions of a subject of a new bound topic as a producer does, produces one
   * record with each, and consumes them: each record's magic byte and id must be the version's.
   * Returns the records decoded by another client (a consumer's), and what the checks need.
   */
  async function twoVersions(
    name: string,
    schemaType: SchemaType,
    schemas: [string, string],
    values: [unknown, unknown],
  ) {
    const topic = await boundTopic(name);
    const producer = await serdeClient();
    const subject = `${topic}-value`;
    const ids: number[] = [];
    for (const schema of schemas)
      ids.push((await producer.register({ type: schemaType, schema } as ConfluentSchema, { subject })).id);
    expect(new Set(ids).size).toBe(2);
    const sent = await Promise.all(values.map((value, i) => producer.encode(ids[i]!, value)));
    const received = await roundTrip(topic, sent);
    expect(received.map((bytes) => [bytes[0], bytes.readInt32BE(1)])).toEqual(ids.map((id) => [0, id]));
    const consumer = await serdeClient();
    const decoded: unknown[] = await Promise.all(received.map((bytes) => consumer.decode(bytes)));
    return { subject, ids, received, consumer, decoded };
  }

  it("declares the Kafka cluster", async () => {
    const { declareCluster } = await registry().query<{ declareCluster: { userErrors: unknown[] } }>(
      DECLARE_CLUSTER,
      {
        input: {
          name: cluster,
          provider: "kafka",
          config: { "apache.kafka": { "bootstrap.servers": kafka.at(0).bootstrapServers } },
        },
      },
    );
    expect(declareCluster.userErrors).toEqual([]);
  });

  it("AVRO: records encoded with two compatible versions decode, each carrying its registered id", async () => {
    const v1 = {
      type: "record" as const,
      name: "Widget",
      namespace: "acme",
      fields: [{ name: "name", type: "string" }],
    };
    const v2 = { ...v1, fields: [...v1.fields, { name: "color", type: "string", default: "grey" }] };
    const { subject, ids, received, consumer, decoded } = await twoVersions(
      "widgets",
      SchemaType.AVRO,
      [JSON.stringify(v1), JSON.stringify(v2)],
      [{ name: "w1" }, { name: "w2", color: "red" }],
    );
    expect(decoded).toEqual([{ name: "w1" }, { name: "w2", color: "red" }]);
    // A reader on v2 reads v1's record with the default (Avro resolution).
    const read = await consumer.decode(received[0]!, { [SchemaType.AVRO]: { readerSchema: v2 } });
    expect(read).toEqual({ name: "w1", color: "grey" });
    expect(await consumer.getLatestSchemaId(subject)).toBe(ids[1]);
  }, 120_000);

  it("JSON Schema: records encode and decode, a second compatible version too", async () => {
    // Closed content models: adding an optional property to an open one is incompatible (Confluent's rule).
    const v1 = { type: "object", properties: { size: { type: "number" } }, additionalProperties: false };
    const v2 = { ...v1, properties: { ...v1.properties, label: { type: "string" } } };
    const { decoded } = await twoVersions(
      "gadgets",
      SchemaType.JSON,
      [JSON.stringify(v1), JSON.stringify(v2)],
      [{ size: 3 }, { size: 4, label: "x" }],
    );
    expect(decoded).toEqual([{ size: 3 }, { size: 4, label: "x" }]);
  }, 120_000);

  it("PROTOBUF: records encode and decode with the message index Confluent's wire format adds", async () => {
    const { decoded } = await twoVersions(
      "sprockets",
      SchemaType.PROTOBUF,
      [
        'syntax = "proto3";\npackage acme;\nmessage Sprocket { string name = 1; }\n',
        'syntax = "proto3";\npackage acme;\nmessage Sprocket { string name = 1; int32 teeth = 2; }\n',
      ],
      [{ name: "s1" }, { name: "s2", teeth: 12 }],
    );
    expect(decoded.map((message) => ({ ...(message as object) }))).toEqual([
      { name: "s1" },
      { name: "s2", teeth: 12 },
    ]);
  }, 120_000);
});

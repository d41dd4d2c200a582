import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SchemaRegistry, SchemaType } from "@kafkajs/confluent-schema-registry";
import {
  CREATE_BINDING,
  DECLARE_CLUSTER,
  eventually,
  mutate,
  startRegistryTree,
  type RegistryNode,
} from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { createStream, record, registerKey, registerType } from "../support/schema-graphql.ts";

const CREATE_TOKEN = `mutation($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret userErrors { code message } } }`;
const GRANT = `mutation($input: GrantInput!) { grant(input: $input) { userErrors { code message } } }`;
const SUBJECT = "subject typeName versions { version id schemaType }";
const STREAM = `query ($name: String!) { stream(name: $name) {
  typeSchemas { subject }
  serializerSubjects { topic producersUse valueSubjectNameStrategy value { ${SUBJECT} } key { ${SUBJECT} } } } }`;

interface Subject {
  subject: string;
  versions: { version: number; id: number; schemaType: string }[];
}
interface StreamAnswer {
  stream: {
    typeSchemas: { subject: string }[];
    serializerSubjects: {
      topic: string;
      producersUse: string;
      valueSubjectNameStrategy: string | null;
      value: Subject | null;
      key: Subject | null;
    };
  };
}

/**
 * Issue 20, item 2: a producer with Confluent's default serializer (TopicNameStrategy) registers
 * "<topic>-value" and "<topic>-key" through /schema-registry, never REGISTER ... SCHEMA; the stream
 * whose binding is that topic shows them, beside its own strategy's subjects.
 */
describe("subjects Confluent serializers register, linked to their stream", () => {
  const registry = useRegistryProcess("pglite");

  /** A serializer's client as a producer configures it: Basic auth with a writer's API token. */
  async function serializerClient(): Promise<SchemaRegistry> {
    const r = registry();
    const { secret } = await mutate<{ secret: string }>(r, CREATE_TOKEN, {
      input: { name: "orders-producer" },
    });
    await mutate(r, GRANT, { input: { principal: "token:orders-producer", role: "writer" } });
    const host = r.url.replace(/\/graphql$/, "/schema-registry");
    return new SchemaRegistry({
      host,
      auth: { username: "orders-service", password: secret },
    });
  }

  it("shows <topic>-value and <topic>-key on the stream, with which subject producers use", async () => {
    const r = registry();
    expect(await createStream(r, "orders_v0")).toEqual([]);
    await mutate(r, DECLARE_CLUSTER, { input: { name: "orders_cluster" } });
    await mutate(r, CREATE_BINDING, { input: { stream: "orders_v0", cluster: "orders_cluster" } });
    // The stream's own (TYPE_NAME) subject, as REGISTER TYPE SCHEMA makes it.
    expect(
      (await registerType(r, { stream: "orders_v0", typeName: "Order", schema: record("Order", ["id"]) }))
        .userErrors,
    ).toEqual([]);

    const before = await r.query<StreamAnswer>(STREAM, { name: "orders_v0" });
    expect(before.stream.serializerSubjects).toEqual({
      topic: "orders_v0",
      producersUse: "orders_v0-value",
      valueSubjectNameStrategy: null,
      value: null,
      key: null,
    });

    // What a producer's serializer does on its first send: register under TopicNameStrategy's subjects.
    const client = await serializerClient();
    const value = await client.register(
      { type: SchemaType.AVRO, schema: record("Order", ["id", "item"]) },
      { subject: "orders_v0-value" },
    );
    const key = await client.register(
      { type: SchemaType.AVRO, schema: record("OrderKey", ["id"]) },
      { subject: "orders_v0-key" },
    );

    const after = await r.query<StreamAnswer>(STREAM, { name: "orders_v0" });
    expect(after.stream.typeSchemas).toEqual([{ subject: "orders_v0-Order" }]);
    expect(after.stream.serializerSubjects).toEqual({
      topic: "orders_v0",
      producersUse: "orders_v0-value",
      valueSubjectNameStrategy: null,
      value: {
        subject: "orders_v0-value",
        typeName: null,
        versions: [{ version: 1, id: value.id, schemaType: "AVRO" }],
      },
      key: {
        subject: "orders_v0-key",
        typeName: null,
        versions: [{ version: 1, id: key.id, schemaType: "AVRO" }],
      },
    });
    // A consumer decodes with what the stream shows: the id in each record is the value's.
    const encoded = await client.encode(after.stream.serializerSubjects.value!.versions[0]!.id, {
      id: "o-1",
      item: "widget",
    });
    expect(await client.decode(encoded)).toEqual({ id: "o-1", item: "widget" });
  });

  it("names the serializer setting that uses the stream's own strategy's subjects", async () => {
    const r = registry();
    for (const [strategy, setting] of [
      ["TOPIC_NAME", "io.confluent.kafka.serializers.subject.TopicNameStrategy"],
      ["RECORD_NAME", "io.confluent.kafka.serializers.subject.RecordNameStrategy"],
      ["TOPIC_RECORD_NAME", "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy"],
    ] as const) {
      const name = `strategy_${strategy.toLowerCase()}_v0`;
      expect(await createStream(r, name, strategy)).toEqual([]);
      const { stream } = await r.query<StreamAnswer>(STREAM, { name });
      expect(stream.serializerSubjects).toMatchObject({
        producersUse: `${name}-value`,
        valueSubjectNameStrategy: setting,
      });
    }
  });
});

describe("a stream's serializer subjects listed from a parent's index", { timeout: 120_000 }, () => {
  let tree: Map<string, RegistryNode>;
  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws"]);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });

  it("asks the owner for them, as a live list does (the index keeps no copy)", async () => {
    const [root, aws] = [tree.get("/")!, tree.get("/aws")!];
    expect(await createStream(aws, "payments_v0", "TOPIC_NAME")).toEqual([]);
    const list = (consistency: string) =>
      root.request<{ streams: { nodes: unknown[] } }>(
        `{ streams(filter: { namespace: "/aws" }, consistency: ${consistency}) {
          nodes { name serializerSubjects { producersUse key { subject versions { version } } } } } }`,
      );
    await eventually(async () => ((await list("INDEX")).data?.streams.nodes.length === 1 ? true : undefined));
    // Registered after the index holds the stream: only the owner knows of it.
    expect((await registerKey(aws, { stream: "payments_v0", schema: '"string"' })).userErrors).toEqual([]);
    const [indexed, live] = [await list("INDEX"), await list("LIVE")];
    expect(indexed).toEqual(live);
    expect(indexed.data?.streams.nodes).toEqual([
      {
        name: "payments_v0",
        serializerSubjects: {
          producersUse: "payments_v0-value",
          key: { subject: "payments_v0-key", versions: [{ version: 1 }] },
        },
      },
    ]);
  });
});

import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SchemaRegistry, SchemaType } from "@kafkajs/confluent-schema-registry";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

// docs/schemas.md's producer/consumer recipe, run as written (issue 20, item 2).
const doc = readFileSync(new URL("../../../docs/schemas.md", import.meta.url), "utf8");

function recipeSql(): string {
  const recipe = doc.slice(doc.indexOf("### A recipe"));
  const block = /```sql\n([\s\S]*?)```/.exec(recipe);
  expect(block, "docs/schemas.md's recipe has a sql block").not.toBeNull();
  return block![1]!;
}

interface SerializerSubjects {
  producersUse: string;
  valueSubjectNameStrategy: string | null;
  value: { subject: string; versions: { id: number }[] } | null;
  key: { subject: string; versions: { id: number }[] } | null;
}

describe("docs/schemas.md's recipe, against a registry process", () => {
  const registry = useRegistryProcess("pglite");

  it("makes a compacted stream whose key and value subjects are the serializers', and tokens that encode and decode", async () => {
    const r = registry();
    // The README's Kafka section declares kafka001; registry-only here, the recipe is about schemas.
    expect((await runMain(["--registry", r.url, "-e", 'DECLARE CLUSTER "kafka001";'])).code).toBe(
      ExitCode.OK,
    );
    const file = path.join(await mkdtemp(path.join(tmpdir(), "schemas-doc-")), "orders.sql");
    await writeFile(file, recipeSql());
    const applied = await runMain(["--registry", r.url, "apply", "-f", file, "--wait"]);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(ExitCode.OK);
    const [producerToken, consumerToken] = [...applied.stdout.matchAll(/^(srt_\S+)$/gm)].map((m) => m[1]!);
    expect(consumerToken).toBeDefined();

    const host = r.url.replace(/\/graphql$/, "/schema-registry");
    const producer = new SchemaRegistry({ host, auth: { username: "orders", password: producerToken! } });
    const consumer = new SchemaRegistry({ host, auth: { username: "orders", password: consumerToken! } });
    const keyId = await producer.getLatestSchemaId("orders_v0-key");
    const valueId = await producer.getLatestSchemaId("orders_v0-value");
    const key = await producer.encode(keyId, { id: "o-1" });
    const value = await producer.encode(valueId, { id: "o-1", item: "widget" });
    expect(await consumer.decode(key)).toEqual({ id: "o-1" });
    expect(await consumer.decode(value)).toEqual({ id: "o-1", item: "widget" });
    // The consumer's token reads only.
    await expect(
      consumer.register(
        { type: SchemaType.AVRO, schema: '{"type":"record","name":"X","fields":[]}' },
        {
          subject: "orders_v0-value",
        },
      ),
    ).rejects.toThrow(/writer role/);

    const { stream } = await r.query<{ stream: { serializerSubjects: SerializerSubjects } }>(
      `{ stream(name: "orders_v0") { serializerSubjects { producersUse valueSubjectNameStrategy
          value { subject versions { id } } key { subject versions { id } } } } }`,
    );
    expect(stream.serializerSubjects).toEqual({
      producersUse: "orders_v0-value",
      valueSubjectNameStrategy: "io.confluent.kafka.serializers.subject.TopicNameStrategy",
      value: { subject: "orders_v0-value", versions: [{ id: valueId }] },
      key: { subject: "orders_v0-key", versions: [{ id: keyId }] },
    });
  });
});

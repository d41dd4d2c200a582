import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import {
  createStream,
  deleteSchema,
  record,
  registerKey,
  registerType,
  setLevel,
  SUBJECTS,
} from "./support/schema-graphql.ts";

/**
 * Subject name strategies chosen per stream (issue 12, Must 4) and bad input (Must 6) over GraphQL
 * at a registry process: each refusal names its field and stores nothing.
 */
describe("schema strategies and bad input in GraphQL", () => {
  const registry = useRegistryProcess("pglite");
  const r = () => registry();
  const subjects = async (name: string) =>
    (
      await r().query<{
        stream: { keySchema: { subject: string } | null; typeSchemas: { subject: string }[] };
      }>(`query ($name: String!) { stream(name: $name) { ${SUBJECTS} } }`, { name })
    ).stream;

  it.each([
    ["TOPIC_NAME", "topic_v0-value"],
    ["RECORD_NAME", "com.acme.Gadget"],
    ["TOPIC_RECORD_NAME", "topic_record_v0-com.acme.Gadget"],
    ["TYPE_NAME", "type_v0-Gadget"],
  ])("names type subjects by %s", async (strategy, subject) => {
    const stream = subject.startsWith("com.") ? "record_v0" : subject.split("-")[0]!;
    expect(await createStream(r(), stream, strategy)).toEqual([]);
    const key = await registerKey(r(), { stream, schema: '"string"' });
    expect(key.schema?.subject).toBe(`${stream}-key`);
    const type = await registerType(r(), { stream, typeName: "Gadget", schema: record("Gadget", ["name"]) });
    expect(type).toMatchObject({ userErrors: [], schema: { subject } });
    expect(await subjects(stream)).toMatchObject({
      subjectNameStrategy: strategy,
      keySchema: { subject: `${stream}-key` },
      typeSchemas: [{ subject, typeName: "Gadget" }],
    });
  });

  it("holds one type under TOPIC_NAME, and needs a record name under the record strategies", async () => {
    const second = await registerType(r(), {
      stream: "topic_v0",
      typeName: "Other",
      schema: record("Other", ["x"]),
    });
    expect(second.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "typeName"] }),
    ]);
    const unnamed = await registerType(r(), { stream: "record_v0", typeName: "Name", schema: '"string"' });
    expect(unnamed.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "schema"] }),
    ]);
    const unknown = await createStream(r(), "bad_strategy_v0", "TopicNameStrategy");
    expect(unknown).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "config", "schemas", "subject.name.strategy"],
      }),
    ]);
  });

  it("refuses invalid schema text and a stream that does not exist, storing nothing", async () => {
    await createStream(r(), "bad_v0");
    const invalid = await registerType(r(), { stream: "bad_v0", typeName: "W", schema: '{"type": "record"' });
    expect(invalid.userErrors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "schema"],
        message: expect.stringMatching(/invalid schema/),
      }),
    ]);
    const json = await registerType(r(), {
      stream: "bad_v0",
      typeName: "W",
      schema: '{"type": 12}',
      schemaType: "JSON",
    });
    expect(json.userErrors[0]).toMatchObject({ code: "INVALID_INPUT", field: ["input", "schema"] });
    const missing = await registerType(r(), {
      stream: "no_such_v0",
      typeName: "W",
      schema: record("W", ["a"]),
    });
    expect(missing.userErrors).toEqual([
      expect.objectContaining({
        code: "NOT_FOUND",
        field: ["input", "stream"],
        message: expect.stringMatching(/no_such_v0/),
      }),
    ]);
    const badRef = await registerType(r(), {
      stream: "bad_v0",
      typeName: "W",
      schema: record("W", ["a"]),
      references: [{ name: "com.acme.X", subject: "nope", version: 1 }],
    });
    expect(badRef.userErrors[0]).toMatchObject({ code: "INVALID_INPUT", field: ["input", "references"] });
    const huge = await registerType(r(), {
      stream: "bad_v0",
      typeName: "W",
      schema: JSON.stringify({ type: "record", name: "W", doc: "x".repeat(1024 * 1024), fields: [] }),
    });
    expect(huge.userErrors[0]).toMatchObject({ code: "INVALID_INPUT", field: ["input", "schema"] });
    expect(huge.userErrors[0]?.message).toMatch(/1 ?MiB|too large|larger/i);
    expect(await subjects("bad_v0")).toMatchObject({ keySchema: null, typeSchemas: [] });
  });

  it("names an unknown subject or version, and an invalid level", async () => {
    const unknown = await r().request(`{ schemaVersion(subject: "nope-Widget") { id } }`);
    expect(unknown.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/nope-Widget/),
      extensions: { code: "NOT_FOUND", field: ["subject"] },
    });
    const version = await r().request(`{ schemaVersion(subject: "type_v0-Gadget", version: 9) { id } }`);
    expect(version.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", field: ["version"] });
    const id = await r().request(`{ schemaById(id: 99999) { id } }`);
    expect(id.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", field: ["id"] });
    const level = await r().request(
      `mutation { setSchemaCompatibility(input: { level: SOMETIMES }) { level userErrors { code } } }`,
    );
    expect(level.errors?.[0]?.message).toMatch(/SOMETIMES/);
    const foreign = await setLevel(r(), { stream: "type_v0", subject: "topic_v0-value", level: "NONE" });
    expect(foreign.userErrors[0]).toMatchObject({ code: "NOT_FOUND", field: ["input", "subject"] });
  });

  it("refuses to delete a version another schema references", async () => {
    await createStream(r(), "refs_v0");
    const money = await registerType(r(), {
      stream: "refs_v0",
      typeName: "Money",
      schema: record("Money", ["amount"]),
    });
    const order = JSON.stringify({
      type: "record",
      name: "Order",
      namespace: "com.acme",
      fields: [{ name: "price", type: "com.acme.Money" }],
    });
    const referring = await registerType(r(), {
      stream: "refs_v0",
      typeName: "Order",
      schema: order,
      references: [{ name: "com.acme.Money", subject: money.schema!.subject, version: 1 }],
    });
    expect(referring.userErrors).toEqual([]);
    expect(referring.schema?.references).toEqual([
      { name: "com.acme.Money", subject: "refs_v0-Money", version: 1 },
    ]);
    const refused = await deleteSchema(r(), "Version", { subject: "refs_v0-Money", version: 1 });
    expect(refused.userErrors).toEqual([
      expect.objectContaining({
        code: "IN_USE",
        field: ["input", "version"],
        message: expect.stringMatching(/references/),
      }),
    ]);
    expect((await subjects("refs_v0")).typeSchemas).toHaveLength(2);
  });
});

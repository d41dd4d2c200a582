import { describe, expect, it } from "vitest";
import { SchemaRegistry } from "@kafkajs/confluent-schema-registry";
import { isSchemaManagerError, type SchemaContext } from "@stream-registry/provider-api";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { createConfluentSchemaManager } from "../src/index.ts";
import { schemaContext } from "./support/kafka-targets.ts";

const record = (name: string, fields: string[], withDefaults = false) =>
  JSON.stringify({
    type: "record",
    name,
    fields: fields.map((field) => ({ name: field, type: "string", ...(withDefaults && { default: "" }) })),
  });

/** A refusal's reason and whether it is retriable, or the error itself when it is not a SchemaManagerError. */
async function refusal(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return isSchemaManagerError(error) ? [error.reason, error.retriable] : error;
  }
  return "no error";
}

/**
 * The `confluent` SchemaManager (issue 12, Must 1b) over real HTTP against a real registry
 * process's built-in /schema-registry, as against any Confluent-compatible registry: every call of
 * the interface, and each refusal with the reason the built-in gave it (the same table both ways).
 */
describe("the confluent SchemaManager against a registry's /schema-registry", () => {
  const registry = useRegistryProcess("pglite");
  const manager = createConfluentSchemaManager();
  const context = (password = TEST_ADMIN_TOKEN): SchemaContext =>
    schemaContext(registry().url.replace(/\/graphql$/, "/schema-registry"), password);

  it("registers, looks up and reads schemas by subject, version, latest and id", async () => {
    const v1 = { schema: record("Widget", ["a"]) };
    const first = await manager.registerSchema("widgets_v0-value", v1, context());
    expect(first).toEqual({ subject: "widgets_v0-value", version: 1, id: expect.any(Number) });
    expect(await manager.registerSchema("widgets_v0-value", v1, context())).toEqual(first);
    const v2 = { schema: record("Widget", ["a", "b"], true) };
    const second = await manager.registerSchema("widgets_v0-value", v2, context());
    expect(second.version).toBe(2);
    expect(await manager.isSchemaRegistered("widgets_v0-value", v1, context())).toEqual(first);
    expect(
      await manager.isSchemaRegistered("widgets_v0-value", { schema: record("Other", ["x"]) }, context()),
    ).toBeUndefined();
    expect(await manager.isSchemaRegistered("nobody-value", v1, context())).toBeUndefined();
    expect(await manager.getSchema("widgets_v0-value", "latest", context())).toMatchObject({
      ...second,
      schemaType: "AVRO",
      references: [],
      deleted: false,
    });
    expect(JSON.parse((await manager.getSchema("widgets_v0-value", 1, context())).schema)).toEqual(
      JSON.parse(v1.schema),
    );
    expect(await manager.getSchemaById(first.id, context())).toMatchObject({
      id: first.id,
      schemaType: "AVRO",
      references: [],
    });
    expect(await manager.getSubjectVersions("widgets_v0-value", context())).toEqual([1, 2]);
    expect(await manager.getSubjects(context())).toContain("widgets_v0-value");
  });

  it("passes JSON and PROTOBUF types and references through", async () => {
    const json = {
      schema: JSON.stringify({ type: "object", properties: { n: { type: "number" } } }),
      schemaType: "JSON" as const,
    };
    const registered = await manager.registerSchema("json-value", json, context());
    expect(await manager.getSchemaById(registered.id, context())).toMatchObject({ schemaType: "JSON" });
    const base = await manager.registerSchema(
      "base.proto",
      {
        schema: 'syntax = "proto3";\npackage acme;\nmessage Base { string id = 1; }\n',
        schemaType: "PROTOBUF",
      },
      context(),
    );
    const references = [{ name: "base.proto", subject: "base.proto", version: base.version }];
    const schema =
      'syntax = "proto3";\npackage acme;\nimport "base.proto";\nmessage Thing { acme.Base base = 1; }\n';
    const thing = await manager.registerSchema(
      "thing-value",
      { schema, schemaType: "PROTOBUF", references },
      context(),
    );
    expect(await manager.getSchema("thing-value", "latest", context())).toMatchObject({
      id: thing.id,
      schemaType: "PROTOBUF",
      references,
    });
    expect(await refusal(manager.deleteSchema("base.proto", 1, context()))).toEqual([
      "REFERENCE_EXISTS",
      false,
    ]);
  });

  it("reads and sets compatibility levels, global and per subject, and checks candidates", async () => {
    expect(await manager.getGlobalCompatibility(context())).toBe("BACKWARD");
    await manager.registerSchema("levels-value", { schema: record("Level", ["a"]) }, context());
    expect(await manager.getCompatibility("levels-value", context())).toBe("BACKWARD");
    await manager.setCompatibility("levels-value", "FULL", context());
    expect(await manager.getCompatibility("levels-value", context())).toBe("FULL");
    await manager.setGlobalCompatibility("FORWARD", context());
    expect(await manager.getGlobalCompatibility(context())).toBe("FORWARD");
    await manager.setGlobalCompatibility("BACKWARD", context());
    const added = { schema: record("Level", ["a", "b"]) };
    const check = await manager.checkCompatibility("levels-value", "latest", added, context());
    expect(check.compatible).toBe(false);
    expect(check.messages.join()).toMatch(/READER_FIELD_MISSING_DEFAULT_VALUE/);
    const fine = await manager.checkCompatibility(
      "levels-value",
      1,
      { schema: record("Level", ["a", "b"], true) },
      context(),
    );
    expect(fine).toEqual({ compatible: true, messages: [] });
    const incompatible = await manager
      .registerSchema("levels-value", added, context())
      .catch((e: unknown) => e);
    expect(isSchemaManagerError(incompatible) && [incompatible.reason, incompatible.retriable]).toEqual([
      "INCOMPATIBLE",
      false,
    ]);
    expect(isSchemaManagerError(incompatible) && incompatible.messages.join()).toMatch(
      /READER_FIELD_MISSING_DEFAULT_VALUE/,
    );
  });

  it("soft-deletes versions and subjects, with Confluent's refusals as reasons", async () => {
    await manager.registerSchema("gone-value", { schema: record("Gone", ["a"]) }, context());
    const two = await manager.registerSchema(
      "gone-value",
      { schema: record("Gone", ["a", "b"], true) },
      context(),
    );
    expect(await manager.deleteSchema("gone-value", "latest", context())).toBe(2);
    expect(await manager.getSubjectVersions("gone-value", context())).toEqual([1]);
    expect(await manager.getSchemaById(two.id, context())).toMatchObject({ id: two.id });
    expect(await refusal(manager.deleteSchema("gone-value", 2, context()))).toEqual([
      "VERSION_SOFT_DELETED",
      false,
    ]);
    expect(await manager.deleteSubject("gone-value", context())).toEqual([1]);
    expect(await refusal(manager.deleteSubject("gone-value", context()))).toEqual([
      "SUBJECT_SOFT_DELETED",
      false,
    ]);
    expect(await refusal(manager.getSubjectVersions("gone-value", context()))).toEqual([
      "SUBJECT_NOT_FOUND",
      false,
    ]);
  });

  it("deletes permanently, as Confluent's second step, only what was soft-deleted first", async () => {
    const one = await manager.registerSchema("purged-value", { schema: record("Purged", ["a"]) }, context());
    const two = await manager.registerSchema(
      "purged-value",
      { schema: record("Purged", ["a", "b"], true) },
      context(),
    );
    const permanent = { permanent: true };
    expect(await refusal(manager.deleteSchema("purged-value", 1, context(), permanent))).toEqual([
      "VERSION_NOT_SOFT_DELETED",
      false,
    ]);
    expect(await manager.deleteSchema("purged-value", 1, context())).toBe(1);
    expect(await manager.deleteSchema("purged-value", 1, context(), permanent)).toBe(1);
    // Soft-deleted, its id was still readable; gone for good, it is not.
    expect(await refusal(manager.getSchemaById(one.id, context()))).toEqual(["SCHEMA_NOT_FOUND", false]);
    expect(await refusal(manager.deleteSubject("purged-value", context(), permanent))).toEqual([
      "SUBJECT_NOT_SOFT_DELETED",
      false,
    ]);
    expect(await manager.deleteSubject("purged-value", context())).toEqual([2]);
    expect(await manager.getSchemaById(two.id, context())).toMatchObject({ id: two.id });
    expect(await manager.deleteSubject("purged-value", context(), permanent)).toEqual([2]);
    expect(await refusal(manager.getSchemaById(two.id, context()))).toEqual(["SCHEMA_NOT_FOUND", false]);
  });

  it("maps each refusal of the registry to its reason", async () => {
    await manager.registerSchema("refusals-value", { schema: record("Refusal", ["a"]) }, context());
    expect(await refusal(manager.getSchema("nobody-value", 1, context()))).toEqual([
      "SUBJECT_NOT_FOUND",
      false,
    ]);
    expect(await refusal(manager.getSchema("refusals-value", 9, context()))).toEqual([
      "VERSION_NOT_FOUND",
      false,
    ]);
    expect(await refusal(manager.getSchemaById(999_999, context()))).toEqual(["SCHEMA_NOT_FOUND", false]);
    expect(
      await refusal(manager.registerSchema("refusals-value", { schema: "{not avro" }, context())),
    ).toEqual(["INVALID_SCHEMA", false]);
    expect(await refusal(manager.getSchema("refusals-value", 0, context()))).toEqual([
      "INVALID_VERSION",
      false,
    ]);
    expect(await refusal(manager.setCompatibility("refusals-value", "SIDEWAYS" as never, context()))).toEqual(
      ["INVALID_COMPATIBILITY", false],
    );
    expect(await refusal(manager.getSubjects(context("srt_wrong")))).toEqual([undefined, false]);
  });

  it("registers schemas that @kafkajs/confluent-schema-registry then encodes and decodes against the same registry", async () => {
    const { id } = await manager.registerSchema(
      "serde-value",
      { schema: record("Serde", ["name"]) },
      context(),
    );
    const url = registry().url.replace(/\/graphql$/, "/schema-registry");
    const client = new SchemaRegistry({ host: url, auth: { username: "ci", password: TEST_ADMIN_TOKEN } });
    const bytes = await client.encode(id, { name: "w1" });
    expect([bytes[0], bytes.readInt32BE(1)]).toEqual([0, id]);
    expect(await client.decode(bytes)).toEqual({ name: "w1" });
  });
});

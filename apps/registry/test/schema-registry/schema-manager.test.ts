import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSchemaManagerError, type SchemaContext, type SchemaManager } from "@stream-registry/provider-api";
import { listChanges, migrate, openDatabase, type Database } from "@stream-registry/store";
import { builtInSchemaManager } from "../../src/schema-registry/built-in-schema-manager.ts";
import { createSchemaRegistry } from "../../src/schema-registry/schema-registry.ts";

const context: SchemaContext = {
  signal: new AbortController().signal,
  cluster: { namespace: "/", name: "c1", config: {} },
  actor: "token:ci",
};
const record = (fields: string[]) =>
  JSON.stringify({
    type: "record",
    name: "Widget",
    fields: fields.map((name) => ({ name, type: "string" })),
  });

/** A refusal's reason, or the error itself when it is not a SchemaManagerError. */
async function reasonOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return isSchemaManagerError(error) ? [error.reason, error.retriable] : error;
  }
  return "no error";
}

/**
 * The seed's SchemaManager over the built-in registry (issue 12, Must 1a), called in process as
 * the registry's services will call it: the same rules as the REST API, refusals as
 * SchemaManagerErrors with their reason, the caller's actor in the change log.
 */
describe("the built-in SchemaManager", () => {
  let db: Database;
  let manager: SchemaManager;
  beforeAll(async () => {
    db = await openDatabase({});
    await migrate(db);
    manager = builtInSchemaManager(createSchemaRegistry({ db }));
  });
  afterAll(async () => {
    await db.close();
  });

  it("registers, finds and reads schemas by subject, version and id", async () => {
    const first = await manager.registerSchema("widgets_v0-value", { schema: record(["a"]) }, context);
    expect(first).toEqual({ subject: "widgets_v0-value", version: 1, id: expect.any(Number) });
    expect(await manager.registerSchema("widgets_v0-value", { schema: record(["a"]) }, context)).toEqual(
      first,
    );
    expect(await manager.registerSchema("copy-value", { schema: record(["a"]) }, context)).toMatchObject({
      version: 1,
      id: first.id,
    });
    expect(await manager.isSchemaRegistered("widgets_v0-value", { schema: record(["a"]) }, context)).toEqual(
      first,
    );
    expect(
      await manager.isSchemaRegistered("widgets_v0-value", { schema: record(["b"]) }, context),
    ).toBeUndefined();
    expect(
      await manager.isSchemaRegistered("nowhere-value", { schema: record(["a"]) }, context),
    ).toBeUndefined();
    expect(await manager.getSchema("widgets_v0-value", "latest", context)).toMatchObject({
      version: 1,
      id: first.id,
      schemaType: "AVRO",
      schema: record(["a"]),
      deleted: false,
    });
    expect(await manager.getSchemaById(first.id, context)).toEqual({
      id: first.id,
      schemaType: "AVRO",
      schema: record(["a"]),
      references: [],
    });
    expect(await manager.getSubjects(context)).toEqual(["copy-value", "widgets_v0-value"]);
    expect(await manager.getSubjectVersions("widgets_v0-value", context)).toEqual([1]);
    const [entry] = (await listChanges(db.prisma, undefined, 100)).filter((c) => c.entityType === "subject");
    expect(entry).toMatchObject({ entityKey: "widgets_v0-value", action: "created", actor: "token:ci" });
  });

  it("gets, sets and checks compatibility at the global and the subject's level", async () => {
    expect(await manager.getGlobalCompatibility(context)).toBe("BACKWARD");
    expect(await manager.getCompatibility("widgets_v0-value", context)).toBe("BACKWARD");
    const candidate = { schema: record(["a", "b"]) };
    expect(await manager.checkCompatibility("widgets_v0-value", 1, candidate, context)).toEqual({
      compatible: false,
      messages: [expect.stringContaining('"b"')],
    });
    await manager.setCompatibility("widgets_v0-value", "FORWARD_TRANSITIVE", context);
    expect(await manager.getCompatibility("widgets_v0-value", context)).toBe("FORWARD_TRANSITIVE");
    expect(await manager.checkCompatibility("widgets_v0-value", "latest", candidate, context)).toEqual({
      compatible: true,
      messages: [],
    });
    await manager.setGlobalCompatibility("FULL", context);
    expect(await manager.getGlobalCompatibility(context)).toBe("FULL");
    expect(await manager.getCompatibility("copy-value", context)).toBe("FULL");
  });

  it("refuses with SchemaManagerErrors carrying their reason, never retriable", async () => {
    expect(await reasonOf(manager.getSchema("nowhere-value", 1, context))).toEqual([
      "SUBJECT_NOT_FOUND",
      false,
    ]);
    expect(await reasonOf(manager.getSchema("copy-value", 5, context))).toEqual(["VERSION_NOT_FOUND", false]);
    expect(await reasonOf(manager.getSchemaById(424242, context))).toEqual(["SCHEMA_NOT_FOUND", false]);
    expect(await reasonOf(manager.registerSchema("bad-value", { schema: "{" }, context))).toEqual([
      "INVALID_SCHEMA",
      false,
    ]);
    expect(await reasonOf(manager.registerSchema("copy-value", { schema: record(["z"]) }, context))).toEqual([
      "INCOMPATIBLE",
      false,
    ]);
    expect(await reasonOf(manager.registerSchema("a\u0000b", { schema: record(["a"]) }, context))).toEqual([
      "INVALID_SUBJECT",
      false,
    ]);
  });

  it("soft-deletes versions and subjects", async () => {
    await manager.registerSchema("doomed-value", { schema: record(["a"]) }, context);
    expect(await manager.deleteSchema("doomed-value", 1, context)).toBe(1);
    expect(await reasonOf(manager.getSubjectVersions("doomed-value", context))).toEqual([
      "SUBJECT_NOT_FOUND",
      false,
    ]);
    await manager.registerSchema("doomed2-value", { schema: record(["a"]) }, context);
    expect(await manager.deleteSubject("doomed2-value", context)).toEqual([1]);
    expect(await manager.getSubjects(context)).not.toContain("doomed2-value");
  });

  it("rejects at once a call whose signal is already aborted", async () => {
    const aborted = { ...context, signal: AbortSignal.abort() };
    await expect(manager.getSubjects(aborted)).rejects.toThrow();
    await expect(manager.registerSchema("never-value", { schema: record(["a"]) }, aborted)).rejects.toThrow();
    expect(await manager.getSubjects(context)).not.toContain("never-value");
  });
});

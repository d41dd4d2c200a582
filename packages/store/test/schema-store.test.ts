import { describe, expect, it } from "vitest";
import { COMPATIBILITY_LEVELS, SCHEMA_MODES, SCHEMA_TYPES } from "@stream-registry/core";
import { databaseKinds } from "@stream-registry/testkit";
import { listChanges } from "../src/change-log-reads.ts";
import {
  deleteSubjectVersions,
  findReferrers,
  findSchemaById,
  GLOBAL_SCHEMA_CONFIG,
  insertSubjectVersion,
  listSchemaUsages,
  listSubjects,
  listSubjectVersions,
  lockSubjects,
  readSchemaConfigs,
  storeSchema,
  writeSchemaConfig,
  type NewSchema,
} from "../src/schemas/index.ts";
import { writeTransaction, type Tx } from "../src/transaction.ts";
import { useMigratedDatabase } from "./support/migrated-database.ts";
import { prismaOf } from "../src/testing.ts";

const schema = (text: string, extra: Partial<NewSchema> = {}): NewSchema => ({
  schemaType: "AVRO",
  schema: text,
  canonical: text.replace(/\s/g, ""),
  fingerprint: `fp:${text.replace(/\s/g, "")}`,
  references: [],
  ...extra,
});
const actor = "token:test";

describe.each(databaseKinds)("the schema registry's store on %s", (kind) => {
  const database = useMigratedDatabase(kind, "schemas");
  const prisma = () => database().prisma;
  const write = <T>(fn: (tx: Tx) => Promise<T>) => writeTransaction(prisma(), fn);

  /** Registers `text` as the next version of `subject`, as the registry does; returns its id. */
  async function register(subject: string, text: string, extra: Partial<NewSchema> = {}): Promise<number> {
    return write(async (tx) => {
      await lockSubjects(tx, [subject]);
      const id = await storeSchema(tx, schema(text, extra));
      if (id === "id-taken") throw new Error("id taken");
      const versions = await listSubjectVersions(tx, subject);
      const version = (versions.at(-1)?.version ?? 0) + 1;
      await insertSubjectVersion(tx, { subject, version, schemaId: id, schemaType: "AVRO" }, actor);
      return id;
    });
  }

  it("has the database enums core lists", async () => {
    const labels = async (type: string) =>
      (
        await prismaOf(prisma()).$queryRawUnsafe<{ label: string }[]>(
          `SELECT unnest(enum_range(NULL::"${type}"))::text AS label`,
        )
      ).map((row) => row.label);
    expect(await labels("SchemaType")).toEqual([...SCHEMA_TYPES]);
    expect(await labels("CompatibilityLevel")).toEqual([...COMPATIBILITY_LEVELS]);
    expect(await labels("SchemaMode")).toEqual([...SCHEMA_MODES]);
  });

  it("gives one schema one id across subjects, and a new schema a new id", async () => {
    const a = await register("ids-a", '{"type": "string"}');
    const b = await register("ids-b", '{"type":"string"}');
    const c = await register("ids-b", '{"type":"int"}');
    expect(b).toBe(a);
    expect(c).toBeGreaterThan(a);
    expect(await findSchemaById(prisma(), a)).toEqual({
      id: a,
      schemaType: "AVRO",
      schema: '{"type": "string"}',
      references: [],
    });
    expect(await findSchemaById(prisma(), 999_999)).toBeUndefined();
    expect(await listSchemaUsages(prisma(), a, false)).toEqual([
      { subject: "ids-a", version: 1 },
      { subject: "ids-b", version: 1 },
    ]);
  });

  it("takes an import's id, moves new ids above it, and refuses an id another schema has", async () => {
    const imported = await register("import", '"bytes"', { id: 5000 });
    expect(imported).toBe(5000);
    expect(await register("import", '"boolean"')).toBe(5001);
    await expect(register("import", '"double"', { id: 5000 })).rejects.toThrow("id taken");
    // The same schema under its own id again is that schema.
    expect(await register("import-again", '"bytes"', { id: 5000 })).toBe(5000);
  });

  it("lists a subject's versions with their schemas, and logs each registration", async () => {
    await register("versions", '"long"');
    await register("versions", '"float"');
    const versions = await listSubjectVersions(prisma(), "versions");
    expect(versions.map((v) => [v.version, v.schema, v.deleted])).toEqual([
      [1, '"long"', false],
      [2, '"float"', false],
    ]);
    const entries = await listChanges(prisma(), undefined, 1000);
    expect(entries.filter((e) => e.entityKey === "versions")).toMatchObject([
      { entityType: "subject", action: "created", generation: 1, actor, data: { version: 1 } },
      { entityType: "subject", action: "created", generation: 2, actor, data: { version: 2 } },
    ]);
  });

  it("soft-deletes versions (their id stays), and removes them with the schemas no version holds", async () => {
    const shared = await register("soft", '{"type":"enum","name":"E","symbols":["A"]}');
    const own = await register("soft", '{"type":"fixed","name":"F","size":4}');
    await register("soft-other", '{"type":"enum","name":"E","symbols":["A"]}');
    await write((tx) => deleteSubjectVersions(tx, "soft", [1, 2], { permanent: false, actor }));
    expect((await listSubjectVersions(prisma(), "soft")).map((v) => v.deleted)).toEqual([true, true]);
    expect(await listSubjects(prisma(), { includeDeleted: false, prefix: "soft" })).toEqual(["soft-other"]);
    expect(await listSubjects(prisma(), { includeDeleted: true, prefix: "soft" })).toEqual([
      "soft",
      "soft-other",
    ]);
    expect(await findSchemaById(prisma(), own)).toBeDefined();
    expect(await listSchemaUsages(prisma(), shared, false)).toEqual([{ subject: "soft-other", version: 1 }]);
    expect(await listSchemaUsages(prisma(), shared, true)).toHaveLength(2);

    await write((tx) => deleteSubjectVersions(tx, "soft", [1, 2], { permanent: true, actor }));
    expect(await listSubjectVersions(prisma(), "soft")).toEqual([]);
    expect(await findSchemaById(prisma(), own)).toBeUndefined();
    expect(await findSchemaById(prisma(), shared)).toBeDefined();
    const entries = (await listChanges(prisma(), undefined, 1000)).filter((e) => e.entityKey === "soft");
    expect(entries.map((e) => [e.action, e.data])).toEqual([
      ["created", { version: 1, id: shared, schemaType: "AVRO" }],
      ["created", { version: 2, id: own, schemaType: "AVRO" }],
      ["deleted", { versions: [1, 2], permanent: false }],
      ["dropped", { versions: [1, 2], permanent: true }],
    ]);
  });

  it("finds the versions that reference a subject's version", async () => {
    await register("base", '{"type":"record","name":"Base","fields":[]}');
    const reference = { name: "Base", subject: "base", version: 1 };
    const user = await register(
      "user",
      '{"type":"record","name":"U","fields":[{"name":"b","type":"Base"}]}',
      {
        references: [reference],
      },
    );
    expect((await findSchemaById(prisma(), user))?.references).toEqual([reference]);
    expect(await findReferrers(prisma(), { subject: "base", version: 1 }, false)).toEqual([
      { subject: "user", version: 1, id: user },
    ]);
    expect(await findReferrers(prisma(), { subject: "base", version: 2 }, true)).toEqual([]);
    await write((tx) => deleteSubjectVersions(tx, "user", [1], { permanent: false, actor }));
    expect(await findReferrers(prisma(), { subject: "base", version: 1 }, false)).toEqual([]);
    expect(await findReferrers(prisma(), { subject: "base", version: 1 }, true)).toHaveLength(1);
  });

  it("sets and clears compatibility and mode, per subject and globally", async () => {
    expect(await readSchemaConfigs(prisma(), "cfg")).toEqual({ subject: {}, global: {} });
    await write((tx) => writeSchemaConfig(tx, GLOBAL_SCHEMA_CONFIG, { compatibility: "FULL" }, actor));
    await write((tx) => writeSchemaConfig(tx, "cfg", { compatibility: "NONE", mode: "READONLY" }, actor));
    expect(await readSchemaConfigs(prisma(), "cfg")).toEqual({
      subject: { compatibility: "NONE", mode: "READONLY" },
      global: { compatibility: "FULL" },
    });
    await write((tx) => writeSchemaConfig(tx, "cfg", { compatibility: null }, actor));
    expect((await readSchemaConfigs(prisma(), "cfg")).subject).toEqual({ mode: "READONLY" });
    await write((tx) => writeSchemaConfig(tx, "cfg", { mode: null }, actor));
    expect(await prismaOf(prisma()).schemaConfig.count({ where: { subject: "cfg" } })).toBe(0);
    const entries = (await listChanges(prisma(), undefined, 1000)).filter(
      (e) => e.entityType === "schema_config" && e.entityKey === "cfg",
    );
    expect(entries.map((e) => e.action)).toEqual(["updated", "updated", "deleted"]);
    await write((tx) => writeSchemaConfig(tx, GLOBAL_SCHEMA_CONFIG, { compatibility: null }, actor));
  });

  it("numbers concurrent registrations of one subject without gaps or duplicates", async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `{"type":"record","name":"C${i}","fields":[]}`);
    await Promise.all(texts.map((text) => register("concurrent", text)));
    const versions = await listSubjectVersions(prisma(), "concurrent");
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(versions.map((v) => v.schema))).toEqual(new Set(texts));
  });

  it("makes a subject's writers take turns (on PostgreSQL across two connections)", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = write(async (tx) => {
      await lockSubjects(tx, ["turns", "other"]);
      order.push("first locked");
      await held;
      order.push("first done");
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = write(async (tx) => {
      await lockSubjects(tx, ["turns"]);
      order.push("second locked");
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first locked", "first done", "second locked"]);
  });
});

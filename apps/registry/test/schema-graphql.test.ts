import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import {
  CHECK,
  createStream,
  deleteSchema,
  record,
  registerKey,
  registerType,
  setLevel,
  SUBJECTS,
} from "./support/schema-graphql.ts";

interface StreamSchemas {
  stream: {
    subjectNameStrategy: string;
    keySchema: {
      subject: string;
      typeName: null;
      compatibility: string;
      versions: { version: number; id: number }[];
    } | null;
    typeSchemas: {
      subject: string;
      typeName: string;
      compatibility: string;
      versions: { version: number; id: number }[];
    }[];
  } | null;
}

/**
 * A stream's key and type schemas over GraphQL (issue 12, Musts 4 to 6) at a registry process:
 * registering under the seed's subjects, reading them on the stream, levels, checks, deletes.
 */
describe("schemas in GraphQL", () => {
  const registry = useRegistryProcess("pglite");
  const r = () => registry();
  const streamSchemas = async (name: string) =>
    (
      await r().query<StreamSchemas>(`query ($name: String!) { stream(name: $name) { ${SUBJECTS} } }`, {
        name,
      })
    ).stream;

  it("registers a key and several types on a stream under the seed's subjects, and shows them on the stream", async () => {
    expect(await createStream(r(), "widget_command_events_v0")).toEqual([]);
    const key = await registerKey(r(), { stream: "widget_command_events_v0", schema: '"string"' });
    expect(key).toMatchObject({
      userErrors: [],
      schema: { subject: "widget_command_events_v0-key", version: 1, schemaType: "AVRO" },
    });
    const named = await registerType(r(), {
      stream: "widget_command_events_v0",
      typeName: "WidgetNameUpdated",
      schema: record("WidgetNameUpdated", ["name"]),
    });
    const colored = await registerType(r(), {
      stream: "widget_command_events_v0",
      typeName: "WidgetColorUpdated",
      schema: record("WidgetColorUpdated", ["color"]),
    });
    expect(named.schema?.subject).toBe("widget_command_events_v0-WidgetNameUpdated");
    expect(colored.schema?.subject).toBe("widget_command_events_v0-WidgetColorUpdated");
    // The same schema again is the version it is.
    const again = await registerType(r(), {
      stream: "widget_command_events_v0",
      typeName: "WidgetColorUpdated",
      schema: record("WidgetColorUpdated", ["color"]),
    });
    expect(again.schema).toMatchObject({ version: 1, id: colored.schema!.id });

    const stream = await streamSchemas("widget_command_events_v0");
    expect(stream?.subjectNameStrategy).toBe("TYPE_NAME");
    expect(stream?.keySchema).toEqual({
      subject: "widget_command_events_v0-key",
      typeName: null,
      compatibility: "BACKWARD",
      versions: [{ version: 1, id: key.schema!.id }],
    });
    expect(stream?.typeSchemas.map((t) => [t.typeName, t.subject, t.versions.length])).toEqual([
      ["WidgetNameUpdated", "widget_command_events_v0-WidgetNameUpdated", 1],
      ["WidgetColorUpdated", "widget_command_events_v0-WidgetColorUpdated", 1],
    ]);

    const byVersion = await r().query<{ schemaVersion: { id: number; schema: string } }>(
      `{ schemaVersion(subject: "widget_command_events_v0-WidgetNameUpdated", version: 1) { id schema } }`,
    );
    expect(byVersion.schemaVersion).toEqual({
      id: named.schema!.id,
      schema: record("WidgetNameUpdated", ["name"]),
    });
    const byId = await r().query<{ schemaById: { schemaType: string; schema: string } }>(
      `query ($id: Int!) { schemaById(id: $id) { schemaType schema } }`,
      { id: key.schema!.id },
    );
    expect(byId.schemaById).toEqual({ schemaType: "AVRO", schema: '"string"' });
  });

  it("sets and reads levels, checks a candidate, and refuses an incompatible one with its messages", async () => {
    await createStream(r(), "levels_v0");
    await registerType(r(), { stream: "levels_v0", typeName: "Widget", schema: record("Widget", ["name"]) });
    const subject = "levels_v0-Widget";
    expect(await setLevel(r(), { subject, level: "FULL" })).toEqual({
      subject,
      level: "FULL",
      userErrors: [],
    });
    expect(await setLevel(r(), { level: "BACKWARD" })).toMatchObject({ subject: null, level: "BACKWARD" });
    const levels = await r().query<{ own: string; global: string }>(
      `query ($subject: String) { own: schemaCompatibility(subject: $subject) global: schemaCompatibility }`,
      { subject },
    );
    expect(levels).toEqual({ own: "FULL", global: "BACKWARD" });

    const widened = record("Widget", ["name", "color"]);
    const check = await r().query<{
      checkSchemaCompatibility: { subject: string; compatible: boolean; messages: string[] };
    }>(CHECK, { stream: "levels_v0", typeName: "Widget", schema: widened });
    expect(check.checkSchemaCompatibility).toMatchObject({ subject, compatible: false });
    expect(check.checkSchemaCompatibility.messages.join()).toMatch(/color/);
    const fine = await r().query<{ checkSchemaCompatibility: { compatible: boolean } }>(CHECK, {
      subject,
      schema: record("Widget", ["name"], [{ name: "color", type: "string", default: "red" }]),
    });
    expect(fine.checkSchemaCompatibility.compatible).toBe(true);

    const refused = await registerType(r(), { stream: "levels_v0", typeName: "Widget", schema: widened });
    expect(refused.schema).toBeNull();
    expect(refused.userErrors).toEqual([
      expect.objectContaining({
        code: "INCOMPATIBLE",
        field: ["input", "schema"],
        messages: [expect.stringMatching(/color/)],
      }),
    ]);
    expect(refused.userErrors[0]!.message).toMatch(/incompatible/);
    expect((await streamSchemas("levels_v0"))?.typeSchemas[0]?.versions).toHaveLength(1);
  });

  it("deletes a version and a subject, soft then permanent", async () => {
    await createStream(r(), "deletes_v0");
    await registerType(r(), { stream: "deletes_v0", typeName: "A", schema: record("A", ["a"]) });
    await setLevel(r(), { subject: "deletes_v0-A", level: "NONE" });
    await registerType(r(), { stream: "deletes_v0", typeName: "A", schema: record("A", ["b"]) });
    const soft = await deleteSchema(r(), "Version", {
      stream: "deletes_v0",
      subject: "deletes_v0-A",
      version: 2,
    });
    expect(soft).toEqual({ subject: "deletes_v0-A", versions: [2], userErrors: [] });
    const permanent = await deleteSchema(r(), "Version", {
      subject: "deletes_v0-A",
      version: 2,
      permanent: true,
    });
    expect(permanent.versions).toEqual([2]);
    expect((await streamSchemas("deletes_v0"))?.typeSchemas[0]?.versions.map((v) => v.version)).toEqual([1]);
    const notFirst = await deleteSchema(r(), "Subject", { subject: "deletes_v0-A", permanent: true });
    expect(notFirst.userErrors[0]).toMatchObject({ code: "INVALID_INPUT", field: ["input", "permanent"] });
    expect((await deleteSchema(r(), "Subject", { subject: "deletes_v0-A" })).versions).toEqual([1]);
    expect((await streamSchemas("deletes_v0"))?.typeSchemas).toEqual([]);
    expect(
      (await deleteSchema(r(), "Subject", { subject: "deletes_v0-A", permanent: true })).versions,
    ).toEqual([1]);
  });
});

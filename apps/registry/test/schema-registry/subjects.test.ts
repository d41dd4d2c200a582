import { describe, expect, it } from "vitest";
import { databaseKinds } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import {
  avroRecord,
  expectError,
  MEDIA_TYPE,
  schemaRegistryClient,
} from "../support/schema-registry-client.ts";

const widget = avroRecord("Widget", ["name"]);
const widgetWithColor = avroRecord("Widget", ["name", "color"]);
const widgetWithDefault = {
  ...widget,
  fields: [...(widget.fields as object[]), { name: "color", type: "string", default: "red" }],
};

/**
 * The built-in schema registry's REST API (issue 12, Must 1a) at a registry process, over HTTP:
 * registering, reading, looking up, ids across subjects, compatibility, references.
 */
describe.each(databaseKinds)("schema registry subjects and schemas (%s)", (kind) => {
  const registry = useRegistryProcess(kind);
  const sr = () => schemaRegistryClient(registry().url);

  it("answers / with {} and lists the schema types, in Confluent's media type", async () => {
    const root = await sr().get("/");
    expect(root).toMatchObject({ status: 200, body: {} });
    expect(root.headers.get("content-type")).toBe(MEDIA_TYPE);
    expect((await sr().get("/schemas/types")).body).toEqual(["AVRO", "JSON", "PROTOBUF"]);
  });

  it("registers versions, and serves them by number, latest and -1, by id and as raw text", async () => {
    const v1 = await sr().register("reads-value", widget);
    const v2 = await sr().register("reads-value", widgetWithDefault);
    expect(v2).toBeGreaterThan(v1);
    expect((await sr().get("/subjects/reads-value/versions")).body).toEqual([1, 2]);
    const first = await sr().get("/subjects/reads-value/versions/1");
    expect(first.body).toEqual({
      subject: "reads-value",
      version: 1,
      id: v1,
      schema: JSON.stringify(widget),
    });
    for (const latest of ["latest", "-1"]) {
      expect((await sr().get(`/subjects/reads-value/versions/${latest}`)).body).toMatchObject({
        version: 2,
        id: v2,
      });
    }
    expect((await sr().get(`/schemas/ids/${v1}`)).body).toEqual({ schema: JSON.stringify(widget) });
    const raw = await sr().get(`/schemas/ids/${v2}/schema`);
    expect(raw.body).toEqual(widgetWithDefault);
    expect((await sr().get("/subjects/reads-value/versions/2/schema")).body).toEqual(widgetWithDefault);
    expect((await sr().get("/subjects")).body).toContain("reads-value");
    expect((await sr().get("/subjects?subjectPrefix=reads-")).body).toEqual(["reads-value"]);
  });

  it("gives one schema the same id under two subjects, whatever its whitespace", async () => {
    const id = await sr().register("same-a", widget);
    const again = await sr().register("same-b", JSON.stringify(widget, null, 2));
    expect(again).toBe(id);
    expect((await sr().get("/subjects/same-b/versions/1")).body.id).toBe(id);
    expect((await sr().get(`/schemas/ids/${id}/subjects`)).body).toEqual(
      expect.arrayContaining(["same-a", "same-b"]),
    );
    expect((await sr().get(`/schemas/ids/${id}/versions`)).body).toEqual(
      expect.arrayContaining([
        { subject: "same-a", version: 1 },
        { subject: "same-b", version: 1 },
      ]),
    );
  });

  it("returns the existing version when the same schema is registered again", async () => {
    const id = await sr().register("again-value", widget);
    expect(await sr().register("again-value", widget)).toBe(id);
    expect((await sr().get("/subjects/again-value/versions")).body).toEqual([1]);
  });

  it("numbers concurrent registrations of one subject without duplicates", async () => {
    const schemas = Array.from({ length: 6 }, (_, i) => avroRecord(`C${i}`, ["a"]));
    await sr().put("/config/concurrent-value", { compatibility: "NONE" });
    const ids = await Promise.all(
      [...schemas, ...schemas].map((schema) => sr().register("concurrent-value", schema)),
    );
    expect(new Set(ids).size).toBe(6);
    expect((await sr().get("/subjects/concurrent-value/versions")).body).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("looks a schema up under a subject (POST /subjects/{s}): 40401 and 40403 otherwise", async () => {
    const id = await sr().register("lookup-value", widget);
    const found = await sr().post("/subjects/lookup-value", { schema: JSON.stringify(widget, null, 1) });
    expect(found.body).toEqual({ subject: "lookup-value", version: 1, id, schema: JSON.stringify(widget) });
    expectError(await sr().post("/subjects/lookup-value", { schema: '"string"' }), 404, 40403);
    expectError(await sr().post("/subjects/no-such-subject", { schema: '"string"' }), 404, 40401);
  });

  it("refuses an incompatible schema with 409 and its incompatibilities, and registers nothing", async () => {
    await sr().register("compat-value", widget);
    const refused = await sr().post("/subjects/compat-value/versions", {
      schema: JSON.stringify(widgetWithColor),
    });
    expectError(refused, 409, 409, /incompatible with an earlier schema.*READER_FIELD_MISSING_DEFAULT_VALUE/);
    expect((await sr().get("/subjects/compat-value/versions")).body).toEqual([1]);
  });

  it("checks candidates against a version, the latest, or all the level covers (verbose gives reasons)", async () => {
    await sr().register("check-value", widget);
    const path = "/compatibility/subjects/check-value/versions";
    const bad = { schema: JSON.stringify(widgetWithColor) };
    expect((await sr().post(`${path}/latest`, bad)).body).toEqual({ is_compatible: false });
    const verbose = await sr().post(`${path}/1?verbose=true`, bad);
    expect(verbose.body).toEqual({
      is_compatible: false,
      messages: [expect.stringMatching(/field "color"/)],
    });
    expect(
      (await sr().post(`${path}?verbose=true`, { schema: JSON.stringify(widgetWithDefault) })).body,
    ).toEqual({
      is_compatible: true,
      messages: [],
    });
    expectError(await sr().post(`${path}/7`, bad), 404, 40402);
    // A subject without versions takes anything.
    expect((await sr().post("/compatibility/subjects/fresh-value/versions/latest", bad)).body).toEqual({
      is_compatible: true,
    });
  });

  it("registers JSON Schema and Protobuf schemas with their schemaType", async () => {
    const json = JSON.stringify({ type: "object", properties: { a: { type: "string" } } });
    const jsonId = await sr().register("json-value", json, { schemaType: "JSON" });
    expect((await sr().get(`/schemas/ids/${jsonId}`)).body).toEqual({ schemaType: "JSON", schema: json });
    const proto = 'syntax = "proto3";\nmessage Widget { string name = 1; }\n';
    const protoId = await sr().register("proto-value", proto, { schemaType: "PROTOBUF" });
    expect((await sr().get("/subjects/proto-value/versions/1")).body).toMatchObject({
      schemaType: "PROTOBUF",
      schema: proto,
      id: protoId,
    });
    expect((await sr().get(`/schemas/ids/${protoId}/schema`)).body).toBe(proto);
    // The same text as another type is another schema.
    const text = '{"type":"string"}';
    expect(await sr().register("json-as-avro", text)).not.toBe(
      await sr().register("json-as-json", text, { schemaType: "JSON" }),
    );
  });

  it("resolves references, serves them, and refuses deleting what another schema references (42206)", async () => {
    const address = {
      type: "record",
      name: "Address",
      namespace: "acme",
      fields: [{ name: "city", type: "string" }],
    };
    const addressId = await sr().register("acme.Address", address);
    const person = {
      type: "record",
      name: "Person",
      namespace: "acme",
      fields: [{ name: "home", type: "acme.Address" }],
    };
    const references = [{ name: "acme.Address", subject: "acme.Address", version: 1 }];
    const personId = await sr().register("person-value", person, { references });
    expect((await sr().get(`/schemas/ids/${personId}`)).body).toEqual({
      references,
      schema: JSON.stringify(person),
    });
    expect((await sr().get("/subjects/acme.Address/versions/1/referencedby")).body).toEqual([personId]);
    // Without its reference the schema does not parse.
    expectError(
      await sr().post("/subjects/person-value/versions", {
        schema: JSON.stringify({ ...person, name: "P2" }),
      }),
      422,
      42201,
    );
    // A reference to a version that does not exist.
    expectError(
      await sr().post("/subjects/person2-value/versions", {
        schema: JSON.stringify(person),
        references: [{ name: "acme.Address", subject: "acme.Address", version: 9 }],
      }),
      422,
      42201,
      /does not exist/,
    );
    expectError(await sr().delete("/subjects/acme.Address/versions/1"), 422, 42206);
    expectError(await sr().delete("/subjects/acme.Address"), 422, 42206);
    expect((await sr().get(`/schemas/ids/${addressId}`)).status).toBe(200);
    // Once the referrer is soft-deleted, the referenced version may be soft-deleted, but not
    // removed while the referrer's id is still readable.
    expect((await sr().delete("/subjects/person-value")).body).toEqual([1]);
    expect((await sr().delete("/subjects/acme.Address/versions/1")).body).toBe(1);
    expectError(await sr().delete("/subjects/acme.Address/versions/1?permanent=true"), 422, 42206);
    expect((await sr().delete("/subjects/person-value?permanent=true")).body).toEqual([1]);
    expect((await sr().delete("/subjects/acme.Address/versions/1?permanent=true")).body).toBe(1);
  });

  it("serves 40403 for an unknown id and 40401/40402 for unknown subjects and versions", async () => {
    expectError(await sr().get("/schemas/ids/999999"), 404, 40403);
    expectError(await sr().get("/schemas/ids/999999/subjects"), 404, 40403);
    expectError(await sr().get("/subjects/nothing-here/versions"), 404, 40401);
    expectError(await sr().get("/subjects/nothing-here/versions/1"), 404, 40401);
    await sr().register("few-value", widget);
    expectError(await sr().get("/subjects/few-value/versions/2"), 404, 40402);
  });
});

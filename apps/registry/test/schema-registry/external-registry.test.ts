import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CREATE_BINDING, CREATE_STREAM, DECLARE_CLUSTER, TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess, useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { schemaRegistryClient } from "../support/schema-registry-client.ts";

const REGISTER_TYPE = `mutation($input: RegisterTypeSchemaInput!) { registerTypeSchema(input: $input) {
  schema { subject version id schemaType } userErrors { code field message messages } } }`;
const TYPE_SCHEMAS = `query($name: String!) { stream(name: $name) {
  typeSchemas { subject versions { version id } compatibility } } }`;
const DELETE_SUBJECT = `mutation($input: DeleteSchemaSubjectInput!) { deleteSchemaSubject(input: $input) {
  versions userErrors { code field } } }`;
const CLUSTER_CONFIG = `query($name: String!) { cluster(name: $name) { config } }`;

interface Registered {
  registerTypeSchema: {
    schema: { subject: string; version: number; id: number } | null;
    userErrors: { code: string; messages?: string[] }[];
  };
}

const widget = (fields: string[]) =>
  JSON.stringify({
    type: "record",
    name: "Widget",
    fields: fields.map((name) => ({ name, type: "string" })),
  });

/**
 * Issue 12, Must 1b through the API: a Kafka cluster whose "schema.registry" config map names an
 * external Confluent-compatible registry (here another registry process's /schema-registry) keeps
 * the schemas of streams bound to it there, through the Kafka provider's `confluent` manager; a
 * cluster without the map keeps them in the registry's own built-in one.
 */
describe("a Kafka cluster with an external schema registry", () => {
  const kafka = useSharedKafkaClusters();
  const registry = useRegistryProcess("pglite");
  const external = useRegistryProcess("pglite");
  const suffix = randomBytes(3).toString("hex");
  const [withExternal, withBuiltIn] = [`ext_${suffix}`, `own_${suffix}`];

  async function boundStream(name: string, cluster: string) {
    const r = registry();
    await r.query(CREATE_STREAM, { input: { name } });
    await r.query(CREATE_BINDING, { input: { stream: name, cluster } });
  }

  /** REGISTER TYPE SCHEMA "Widget" through GraphQL: its payload. */
  async function registerWidget(stream: string, fields: string[]) {
    const input = { stream, typeName: "Widget", schema: widget(fields) };
    return (await registry().query<Registered>(REGISTER_TYPE, { input })).registerTypeSchema;
  }

  it("declares the clusters; the registry's password is a secret", async () => {
    const bootstrap = { "bootstrap.servers": kafka.at(0).bootstrapServers };
    const url = external().url.replace(/\/graphql$/, "/schema-registry");
    for (const [name, config] of [
      [
        withExternal,
        { "apache.kafka": bootstrap, "schema.registry": { url, username: "a", password: TEST_ADMIN_TOKEN } },
      ],
      [withBuiltIn, { "apache.kafka": bootstrap }],
    ] as const) {
      const { declareCluster } = await registry().query<{ declareCluster: { userErrors: unknown[] } }>(
        DECLARE_CLUSTER,
        { input: { name, provider: "kafka", config } },
      );
      expect(declareCluster.userErrors).toEqual([]);
    }
    const { cluster } = await registry().query<{
      cluster: { config: Record<string, Record<string, string>> };
    }>(CLUSTER_CONFIG, { name: withExternal });
    expect(cluster.config["schema.registry"]).toEqual({
      url,
      username: "a",
      password: expect.stringMatching(/^\*{8}/),
    });
    expect(JSON.stringify(cluster.config)).not.toContain(TEST_ADMIN_TOKEN);
  });

  it("registers a stream's schemas in the external registry when its binding's cluster names one", async () => {
    const stream = `widgets_${suffix}`;
    await boundStream(stream, withExternal);
    const registerTypeSchema = await registerWidget(stream, ["a"]);
    expect(registerTypeSchema.userErrors).toEqual([]);
    const subject = `${stream}-Widget`;
    const there = schemaRegistryClient(external().url);
    const latest = await there.get(`/subjects/${subject}/versions/latest`);
    expect(latest.body).toMatchObject({ subject, version: 1, id: registerTypeSchema.schema!.id });
    expect((await schemaRegistryClient(registry().url).get("/subjects")).body).not.toContain(subject);
    // Read back through the registry, from the external one.
    const { stream: read } = await registry().query<{
      stream: { typeSchemas: { subject: string; versions: { id: number }[] }[] };
    }>(TYPE_SCHEMAS, { name: stream });
    expect(read.typeSchemas).toEqual([
      { subject, versions: [{ version: 1, id: registerTypeSchema.schema!.id }], compatibility: "BACKWARD" },
    ]);
    // The external registry's refusal comes back with its reason: INCOMPATIBLE, with its messages.
    const refused = await registerWidget(stream, ["a", "b"]);
    expect(refused.userErrors).toMatchObject([{ code: "INCOMPATIBLE" }]);
    expect(refused.userErrors[0]!.messages?.join()).toMatch(/READER_FIELD_MISSING_DEFAULT_VALUE/);
  });

  it("deletes a subject in the external registry, softly and then for good", async () => {
    const stream = `purged_${suffix}`;
    await boundStream(stream, withExternal);
    expect((await registerWidget(stream, ["p"])).userErrors).toEqual([]);
    const subject = `${stream}-Widget`;
    const remove = async (permanent: boolean) =>
      (
        await registry().query<{
          deleteSchemaSubject: { versions: number[] | null; userErrors: { code: string; field: string[] }[] };
        }>(DELETE_SUBJECT, { input: { stream, subject, permanent } })
      ).deleteSchemaSubject;
    const subjects = async () =>
      (await schemaRegistryClient(external().url).get("/subjects?deleted=true")).body as string[];
    // The external registry's refusal of a permanent delete first comes back, naming the field.
    expect((await remove(true)).userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "permanent"] }),
    ]);
    expect(await remove(false)).toEqual({ versions: [1], userErrors: [] });
    expect(await subjects()).toContain(subject);
    expect(await remove(true)).toEqual({ versions: [1], userErrors: [] });
    expect(await subjects()).not.toContain(subject);
  });

  it("keeps them in the built-in registry when the cluster names none", async () => {
    const stream = `gadgets_${suffix}`;
    await boundStream(stream, withBuiltIn);
    const registerTypeSchema = await registerWidget(stream, ["g"]);
    expect(registerTypeSchema.userErrors).toEqual([]);
    expect((await schemaRegistryClient(registry().url).get("/subjects")).body).toContain(`${stream}-Widget`);
    expect((await schemaRegistryClient(external().url).get("/subjects")).body).not.toContain(
      `${stream}-Widget`,
    );
  });
});

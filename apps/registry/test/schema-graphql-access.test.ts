import { beforeAll, describe, expect, it } from "vitest";
import { mutate, seedChain } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { record } from "./support/schema-graphql.ts";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret userErrors { code field message } } }`;
const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { created userErrors { code field message } } }`;
const REGISTER = `mutation ($input: RegisterTypeSchemaInput!) {
  registerTypeSchema(input: $input) { schema { subject version } userErrors { code field message } } }`;
const DELETE = `mutation ($input: DeleteSchemaSubjectInput!) {
  deleteSchemaSubject(input: $input) { versions userErrors { code field message } } }`;
const READ = `query ($name: String!) { stream(name: $name) { typeSchemas { subject } } }`;

/**
 * Who may register, read and delete a stream's schemas over GraphQL (a registry in production with
 * authentication on): the writer role covering the stream registers on it, a reader reads; subjects
 * named without a stream take the role on the registry's namespace, as the REST API does.
 */
describe("schemas in GraphQL: authorization", () => {
  const registry = useRegistryProcess("pglite", { NODE_ENV: "production", REGISTRY_AUTH: "on" });
  const tokens: Record<string, string> = {};
  const as = (name: string, query: string, variables: Record<string, unknown>) =>
    registry().request<Record<string, { userErrors?: { code: string }[] } | null>>(query, variables, {
      authorization: `Bearer ${tokens[name]}`,
    });
  const type = (stream: string, typeName = "Widget") => ({
    stream,
    typeName,
    schema: record(typeName, ["name"]),
  });

  beforeAll(async () => {
    await seedChain(registry()).stream({ name: "widgets_a" }).stream({ name: "gadgets_a" });
    for (const name of ["reader", "prefixed"]) {
      tokens[name] = (await mutate<{ secret: string }>(registry(), CREATE_TOKEN, { input: { name } })).secret;
    }
    await mutate(registry(), GRANT, { input: { principal: "token:reader", role: "reader" } });
    await mutate(registry(), GRANT, {
      input: { principal: "token:prefixed", role: "writer", streamPrefix: "widgets_" },
    });
    await mutate(registry(), REGISTER, { input: type("gadgets_a", "Gadget") });
  }, 60_000);

  it("lets a writer covering the stream register on it, and nobody else", async () => {
    const own = await as("prefixed", REGISTER, { input: type("widgets_a") });
    expect(own.data?.registerTypeSchema).toMatchObject({
      userErrors: [],
      schema: { subject: "widgets_a-Widget" },
    });
    const other = await as("prefixed", REGISTER, { input: type("gadgets_a") });
    expect(other.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const reader = await as("reader", REGISTER, { input: type("widgets_a") });
    expect(reader.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const read = await as("reader", READ, { name: "widgets_a" });
    expect(read.data?.stream).toEqual({ typeSchemas: [{ subject: "widgets_a-Widget" }] });
  });

  it("deletes a stream's subject through the stream, but not another's, nor by subject alone", async () => {
    const alone = await as("prefixed", DELETE, { input: { subject: "widgets_a-Widget" } });
    expect(alone.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const foreign = await as("prefixed", DELETE, {
      input: { stream: "widgets_a", subject: "gadgets_a-Gadget" },
    });
    expect(foreign.data?.deleteSchemaSubject?.userErrors).toEqual([
      expect.objectContaining({ code: "NOT_FOUND", field: ["input", "subject"] }),
    ]);
    const own = await as("prefixed", DELETE, { input: { stream: "widgets_a", subject: "widgets_a-Widget" } });
    expect(own.data?.deleteSchemaSubject).toEqual({ versions: [1], userErrors: [] });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import {
  mutate,
  type GraphQLResponse,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
} from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret userErrors { code field message } } }`;
const GRANT = `mutation ($input: GrantInput!) {
  grant(input: $input) { created grant { principal role namespace streamPrefix createdBy } userErrors { code field message } } }`;
const REVOKE = `mutation ($input: RevokeInput!) {
  revoke(input: $input) { grant { principal role namespace } userErrors { code field message } } }`;
const STREAMS = `query ($first: Int, $after: String) {
  streams(first: $first, after: $after) { totalCount nodes { name } pageInfo { hasNextPage endCursor } } }`;
const CHANGES = "{ changes(first: 500) { totalCount nodes { entityType entityKey } } }";
const ENTITIES = `query ($representations: [_Any!]!) {
  _entities(representations: $representations) { ... on Stream { name } ... on Cluster { name } ... on Binding { fqn } } }`;

/**
 * Authorization (issue 11, Must 2), at a root registry process in production with authentication
 * on: principals are API tokens the testkit's admin makes, with grants the admin gives them.
 */
describe("authorization (a registry process in production)", () => {
  const registry = useRegistryProcess("pglite", { NODE_ENV: "production", REGISTRY_AUTH: "on" });
  const tokens: Record<string, string> = {};

  /** An operation as the token `name` sends it. */
  const as =
    (name: string) =>
    <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
      registry().request<T>(query, variables, { authorization: `Bearer ${tokens[name]}` });
  const admin = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>) =>
    registry().request<T>(query, variables);
  const grant = (input: Record<string, unknown>) => mutate(registry(), GRANT, { input });

  beforeAll(async () => {
    await mutate(registry(), DECLARE_CLUSTER, { input: { name: "c1", provider: "registry-only" } });
    for (const name of ["widgets_a", "widgets_b", "gadgets_a"]) {
      await mutate(registry(), CREATE_STREAM, { input: { name } });
      await mutate(registry(), CREATE_BINDING, { input: { stream: name, cluster: "c1" } });
    }
    for (const [name, groups] of [
      ["reader", []],
      ["writer", ["devs"]],
      ["elsewhere", []],
      ["prefixed", []],
      ["aws-admin", []],
      ["nobody", []],
    ] as const) {
      const made = await mutate<{ secret: string }>(registry(), CREATE_TOKEN, {
        input: { name, groups: [...groups] },
      });
      tokens[name] = made.secret;
    }
    await grant({ principal: "token:reader", role: "reader" });
    await grant({ principal: "group:devs", role: "writer", scope: "/" });
    await grant({ principal: "token:elsewhere", role: "writer", scope: "/aws" });
    await grant({ principal: "token:prefixed", role: "WRITER", streamPrefix: "widgets_" });
    await grant({ principal: "token:aws-admin", role: "admin", scope: "/aws" });
  }, 60_000);

  function forbidden(response: GraphQLResponse<unknown>, role: string, namespace: string) {
    expect(response.status).toBe(403);
    expect(response.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", role, namespace });
    expect(response.errors?.[0]?.message).toContain(`needs the ${role} role on namespace ${namespace}`);
  }

  async function streamNames(): Promise<string[]> {
    const { data } = await admin<{ streams: { nodes: { name: string }[] } }>(STREAMS, { first: 500 });
    return data!.streams.nodes.map((s) => s.name);
  }

  it("lets a reader read but not write: FORBIDDEN naming the role and namespace, nothing changed", async () => {
    const reader = as("reader");
    const { data } = await reader<{ streams: { totalCount: number } }>(STREAMS);
    expect(data?.streams.totalCount).toBe(3);
    const before = await streamNames();
    forbidden(await reader(CREATE_STREAM, { input: { name: "by_reader" } }), "writer", "/");
    forbidden(
      await reader(DECLARE_CLUSTER, { input: { name: "c9", provider: "registry-only" } }),
      "admin",
      "/",
    );
    forbidden(await reader(GRANT, { input: { principal: "token:reader", role: "admin" } }), "admin", "/");
    expect(await streamNames()).toEqual(before);
  });

  it("lets a writer write streams and bindings, not clusters", async () => {
    const writer = as("writer");
    const created = await writer<{ createStream: { stream: { name: string } } }>(CREATE_STREAM, {
      input: { name: "by_writer" },
    });
    expect(created.data?.createStream.stream.name).toBe("by_writer");
    forbidden(
      await writer(DECLARE_CLUSTER, { input: { name: "c9", provider: "registry-only" } }),
      "admin",
      "/",
    );
  });

  it("shows a writer out of scope nothing here: lists, counts, look-ups, _entities, the change log", async () => {
    const elsewhere = as("elsewhere");
    forbidden(await elsewhere(CREATE_STREAM, { input: { name: "by_elsewhere" } }), "writer", "/");
    const { data } = await elsewhere<Record<string, { totalCount: number; nodes: unknown[] }>>(
      `{ streams { totalCount nodes { name } } clusters { totalCount nodes { name } }
         bindings { totalCount nodes { fqn } } }`,
    );
    for (const list of ["streams", "clusters", "bindings"]) {
      expect(data?.[list]).toEqual({ totalCount: 0, nodes: [] });
    }
    const lookups = await elsewhere(
      `{ stream(name: "widgets_a") { name } cluster(name: "c1") { name } binding(stream: "widgets_a", cluster: "c1") { fqn } }`,
    );
    expect(lookups.data).toEqual({ stream: null, cluster: null, binding: null });
    const entities = await elsewhere(ENTITIES, {
      representations: [
        { __typename: "Stream", namespace: "/", name: "widgets_a" },
        { __typename: "Cluster", namespace: "/", name: "c1" },
        { __typename: "Binding", fqn: "/c1/widgets_a" },
      ],
    });
    expect(entities.data).toEqual({ _entities: [null, null, null] });
    const changes = await elsewhere<{ changes: { totalCount: number; nodes: unknown[] } }>(CHANGES);
    expect(changes.data?.changes).toEqual({ totalCount: 0, nodes: [] });
    // The admin reads the same objects: they are there.
    const seen = await admin<{ changes: { totalCount: number } }>(CHANGES);
    expect(seen.data?.changes.totalCount).toBeGreaterThan(0);
  });

  it("narrows a writer to its stream prefix: writes, lists, counts, cursors, look-ups", async () => {
    const prefixed = as("prefixed");
    forbidden(await prefixed(CREATE_STREAM, { input: { name: "gadgets_b" } }), "writer", "/");
    const made = await prefixed(CREATE_STREAM, { input: { name: "widgets_c" } });
    expect(made.errors).toBeUndefined();
    // A page at a time: the cursors go through the visible streams only.
    const names: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: GraphQLResponse<{
        streams: {
          totalCount: number;
          nodes: { name: string }[];
          pageInfo: { hasNextPage: boolean; endCursor: string };
        };
      }> = await prefixed(STREAMS, { first: 1, after });
      expect(page.data?.streams.totalCount).toBe(3);
      names.push(...page.data!.streams.nodes.map((s) => s.name));
      if (!page.data!.streams.pageInfo.hasNextPage) break;
      after = page.data!.streams.pageInfo.endCursor;
    }
    expect(names).toEqual(["widgets_a", "widgets_b", "widgets_c"]);
    const lists = await prefixed<Record<string, { totalCount: number; nodes: unknown[] }>>(
      `{ clusters { totalCount nodes { name } } bindings { totalCount nodes { stream { name } } } }`,
    );
    expect(lists.data?.clusters).toEqual({ totalCount: 0, nodes: [] });
    expect(lists.data?.bindings).toEqual({
      totalCount: 2,
      nodes: [{ stream: { name: "widgets_a" } }, { stream: { name: "widgets_b" } }],
    });
    const lookups = await prefixed(
      `{ a: stream(name: "widgets_a") { name } g: stream(name: "gadgets_a") { name } }`,
    );
    expect(lookups.data).toEqual({ a: { name: "widgets_a" }, g: null });
    const entities = await prefixed(ENTITIES, {
      representations: [
        { __typename: "Stream", namespace: "/", name: "gadgets_a" },
        { __typename: "Binding", fqn: "/c1/widgets_a" },
        { __typename: "Binding", fqn: "/c1/gadgets_a" },
        { __typename: "Cluster", namespace: "/", name: "c1" },
      ],
    });
    expect(entities.data).toEqual({ _entities: [null, { fqn: "/c1/widgets_a" }, null, null] });
    // A cluster reached through its binding shows no other stream's bindings.
    const through = await prefixed<{
      stream: { bindings: { cluster: { bindings: { stream: { name: string } }[] } }[] };
    }>(`{ stream(name: "widgets_a") { bindings { cluster { bindings { stream { name } } } } } }`);
    expect(through.data?.stream.bindings[0]?.cluster.bindings.map((b) => b.stream.name)).toEqual([
      "widgets_a",
      "widgets_b",
    ]);
    // The change log is read by namespace: a prefix gives none of it.
    const changes = await prefixed<{ changes: { totalCount: number } }>(CHANGES);
    expect(changes.data?.changes.totalCount).toBe(0);
  });

  it("refuses an admin of /aws to grant at / or at /aws2, and lets it grant at /aws/x", async () => {
    const awsAdmin = as("aws-admin");
    const escalation = await awsAdmin(GRANT, {
      input: { principal: "token:aws-admin", role: "admin", scope: "/" },
    });
    forbidden(escalation, "admin", "/");
    expect(escalation.errors?.[0]?.extensions?.field).toEqual(["input", "scope"]);
    forbidden(
      await awsAdmin(GRANT, { input: { principal: "token:nobody", role: "reader", scope: "/aws2" } }),
      "admin",
      "/aws2",
    );
    const granted = await awsAdmin<{ grant: { created: boolean; grant: { namespace: string } } }>(GRANT, {
      input: { principal: "token:nobody", role: "reader", scope: "/aws/x" },
    });
    expect(granted.data?.grant).toMatchObject({ created: true, grant: { namespace: "/aws/x" } });
    // What it administers it sees; the grants of / it does not.
    const listed = await awsAdmin<{ grants: { totalCount: number; nodes: { namespace: string }[] } }>(
      "{ grants { totalCount nodes { namespace } } }",
    );
    expect(listed.data?.grants.nodes.map((g) => g.namespace).sort()).toEqual(["/aws", "/aws", "/aws/x"]);
    expect(listed.data?.grants.totalCount).toBe(3);
  });

  it("names the field of a bad grant: scope, role, principal, prefix on admin", async () => {
    const refused = async (input: Record<string, unknown>) =>
      (await admin<{ grant: { userErrors: { code: string; field: string[] }[] } }>(GRANT, { input })).data
        ?.grant.userErrors;
    expect(await refused({ principal: "token:x", role: "reader", scope: "aws" })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "scope"] }),
    ]);
    expect(await refused({ principal: "token:x", role: "owner" })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "role"] }),
    ]);
    expect(await refused({ principal: "someone", role: "reader" })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "principal"] }),
    ]);
    expect(await refused({ principal: "token:x", role: "admin", streamPrefix: "w_" })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "streamPrefix"] }),
    ]);
  });

  it("counts a revocation from the next request on", async () => {
    const reader = as("reader");
    const count = async () =>
      (await reader<{ streams: { totalCount: number } }>(STREAMS)).data?.streams.totalCount;
    expect(await count()).toBeGreaterThan(0);
    await mutate(registry(), REVOKE, { input: { principal: "token:reader", role: "reader" } });
    expect(await count()).toBe(0);
    await grant({ principal: "token:reader", role: "reader" });
    expect(await count()).toBeGreaterThan(0);
  });

  it("never revokes the last admin grant of the registry", async () => {
    const { data } = await admin<{ revoke: { userErrors: { code: string }[] } }>(REVOKE, {
      input: { principal: "token:admin", role: "admin" },
    });
    expect(data?.revoke.userErrors).toEqual([expect.objectContaining({ code: "IN_USE" })]);
  });

  it("shows the schema in production to admins only: introspection, _service, suggestions", async () => {
    const reader = as("reader");
    for (const query of [
      "{ __schema { queryType { name } } }",
      '{ __type(name: "Stream") { name } }',
      "{ _service { sdl } }",
    ]) {
      const refused = await reader(query);
      expect(refused.status).toBe(403);
      expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      expect((await admin(query)).errors).toBeUndefined();
    }
    const typo = "{ streamz { totalCount } }";
    expect((await reader(typo)).errors?.[0]?.message).not.toMatch(/Did you mean/);
    expect((await admin(typo)).errors?.[0]?.message).toMatch(/Did you mean "stream/);
  });
});

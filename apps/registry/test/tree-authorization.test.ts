import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  mutate,
  seedChain,
  startRegistryTree,
  type GraphQLResponse,
  type RegistryNode,
} from "@stream-registry/testkit";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret userErrors { code field message } } }`;
const GRANT = `mutation ($input: GrantInput!) {
  grant(input: $input) { created userErrors { code field message } } }`;
const CREATE_STREAM = `mutation ($input: CreateStreamInput!) {
  createStream(input: $input) { stream { name } userErrors { code field message } } }`;
const STREAMS = `query ($first: Int, $after: String, $filter: StreamFilter, $consistency: Consistency) {
  streams(first: $first, after: $after, filter: $filter, consistency: $consistency) {
    totalCount nodes { namespace name } pageInfo { hasNextPage endCursor } } }`;

interface Streams {
  streams: {
    totalCount: number;
    nodes: { namespace: string; name: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/**
 * Grants across a tree (issue 11): the root's discovery index shows each principal the rows of the
 * namespaces its grants at the root cover, by whole segments (/aws, not /aws2); what the root
 * forwards for a user is authorized by the child with the child's own grants.
 */
describe("authorization across a tree (/, /aws, /aws2; production)", () => {
  let nodes: Map<string, RegistryNode>;
  const tokens: Record<string, string> = {};
  const root = () => nodes.get("/")!;
  const as =
    (name: string) =>
    <T>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>> =>
      root().request<T>(query, variables, { authorization: `Bearer ${tokens[name]}` });

  beforeAll(async () => {
    nodes = await startRegistryTree(["/", "/aws", "/aws2"], { env: { NODE_ENV: "production" } });
    for (const path of ["/aws", "/aws2"])
      await seedChain(nodes.get(path)!).stream({ name: "w_1" }).stream({ name: "x_1" });
    for (const name of ["aws-reader", "aws-widgets"]) {
      tokens[name] = (await mutate<{ secret: string }>(root(), CREATE_TOKEN, { input: { name } })).secret;
    }
    await mutate(root(), GRANT, { input: { principal: "token:aws-reader", role: "reader", scope: "/aws" } });
    await mutate(root(), GRANT, {
      input: { principal: "token:aws-widgets", role: "reader", scope: "/aws", streamPrefix: "w_" },
    });
    // The root's index holds all four (the admin reads everything).
    await eventually(async () => {
      const { data } = await root().request<Streams>(STREAMS, { first: 50 });
      expect(data?.streams.totalCount).toBe(4);
      return true;
    }, 60_000);
  }, 240_000);
  afterAll(async () => {
    await Promise.all([...(nodes?.values() ?? [])].map((node) => node.dispose()));
  });

  it("lists from the index what a grant on /aws covers, not /aws2: rows, counts and cursors", async () => {
    const reader = as("aws-reader");
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: GraphQLResponse<Streams> = await reader<Streams>(STREAMS, { first: 1, after });
      expect(page.data?.streams.totalCount).toBe(2);
      seen.push(...page.data!.streams.nodes.map((s) => `${s.namespace} ${s.name}`));
      if (!page.data!.streams.pageInfo.hasNextPage) break;
      after = page.data!.streams.pageInfo.endCursor;
    }
    expect(seen).toEqual(["/aws w_1", "/aws x_1"]);
    const aws2 = await reader<Streams>(STREAMS, { filter: { namespace: "/aws2" } });
    expect(aws2.data?.streams).toMatchObject({ totalCount: 0, nodes: [] });
    const widgets = await as("aws-widgets")<Streams>(STREAMS, {});
    expect(widgets.data?.streams.nodes.map((s) => `${s.namespace} ${s.name}`)).toEqual(["/aws w_1"]);
    expect(widgets.data?.streams.totalCount).toBe(1);
  });

  it("shows the change log of /aws only, and to a prefixed grant none of it", async () => {
    const changes = await as("aws-reader")<{ changes: { nodes: { namespace: string }[] } }>(
      "{ changes(first: 500) { nodes { namespace } } }",
    );
    const namespaces = new Set(changes.data?.changes.nodes.map((c) => c.namespace));
    expect([...namespaces]).toEqual(["/aws"]);
    const prefixed = await as("aws-widgets")<{ changes: { totalCount: number } }>(
      "{ changes { totalCount } }",
    );
    expect(prefixed.data?.changes.totalCount).toBe(0);
  });

  it("has what it forwards for a user authorized by the child, with the child's own grants", async () => {
    const reader = as("aws-reader");
    // The root's grant is the root's: /aws keeps none for this token, so it answers as if absent.
    const lookup = await reader<{ stream: unknown }>(`{ stream(name: "w_1", namespace: "/aws") { name } }`);
    expect(lookup.data).toEqual({ stream: null });
    const live = await reader<Streams>(STREAMS, { consistency: "LIVE" });
    expect(live.data?.streams).toMatchObject({ totalCount: 0, nodes: [] });
    const forbidden = await reader(CREATE_STREAM, { input: { namespace: "/aws", name: "by_reader" } });
    expect(forbidden.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      role: "writer",
      namespace: "/aws",
    });
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { attach, eventually, seed, TREE_TOKEN, type UserErrorView } from "@stream-registry/testkit";
import { useTestRegistry } from "./support/test-registry.ts";

// Stream sources and sinks across a tree (issue 22, "What users do"): a root and its child /aws,
// two registries of this process talking real HTTP. The root routes a create and a look-up to the
// child that owns the namespace, and lists the child's sources from its discovery index, filtered
// by type and state, with their clusters answered by the owner.

const env = { REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN };
const root = useTestRegistry("pglite", env);
const aws = useTestRegistry("pglite", env);

const SOURCES = `query($filter: StreamSourceFilter) {
  sources(filter: $filter, first: 10) { totalCount nodes { namespace name type state cluster { name } } lag { namespace } } }`;
interface Listed {
  sources: {
    totalCount: number;
    nodes: { namespace: string; name: string; type: string; state: string; cluster: { name: string } }[];
    lag: { namespace: string }[];
  };
}

describe("stream sources in a tree", { timeout: 60_000 }, () => {
  let cluster: string;
  beforeAll(async () => {
    await attach({ ...aws(), path: "/aws" }, root());
    cluster = (await seed(aws()).cluster({ name: "c1", provider: "test" })).name;
    for (const name of ["orders", "payments"]) {
      await seed(aws()).binding({ stream: (await seed(aws()).stream({ name })).name, cluster });
    }
  });

  it("creates through the root, routed to the owner, and looks it up there", async () => {
    const { createStreamSource } = await root().query<{
      createStreamSource: { source: { namespace: string; name: string } | null; userErrors: UserErrorView[] };
    }>(
      `mutation($input: CreateStreamSourceInput!) {
        createStreamSource(input: $input) { source { namespace name } userErrors { code field message } } }`,
      {
        input: {
          namespace: "/aws",
          name: "orders",
          cluster,
          type: "file",
          config: { file: { path: "/tmp/o" } },
        },
      },
    );
    expect(createStreamSource).toEqual({ source: { namespace: "/aws", name: "orders" }, userErrors: [] });
    const found = await eventually(async () => {
      const { source } = await root().query<{ source: { state: string; cluster: { name: string } } | null }>(
        `{ source(namespace: "/aws", name: "orders") { state cluster { name } } }`,
      );
      return source?.state === "ONLINE" ? source : undefined;
    });
    expect(found).toEqual({ state: "ONLINE", cluster: { name: "c1" } });
  });

  it("lists the child's sources from its index, by type and state, with their clusters", async () => {
    const made = await aws().query<{ createStreamSource: { userErrors: UserErrorView[] } }>(
      `mutation($input: CreateStreamSourceInput!) { createStreamSource(input: $input) { userErrors { message } } }`,
      { input: { name: "payments", cluster, type: "postgres", config: {}, desiredState: "PAUSED" } },
    );
    expect(made.createStreamSource.userErrors).toEqual([]);
    const listed = await eventually(async () => {
      const page = await root().query<Listed>(SOURCES, {});
      const states = page.sources.nodes.map((node) => node.state).join();
      return states === "ONLINE,PAUSED" ? page : undefined;
    });
    expect(listed.sources).toMatchObject({
      totalCount: 2,
      nodes: [
        { namespace: "/aws", name: "orders", type: "file", state: "ONLINE", cluster: { name: "c1" } },
        { namespace: "/aws", name: "payments", type: "postgres", state: "PAUSED", cluster: { name: "c1" } },
      ],
      lag: [{ namespace: "/aws" }],
    });
    const paused = await root().query<Listed>(SOURCES, { filter: { state: "PAUSED" } });
    expect(paused.sources.nodes.map((node) => node.name)).toEqual(["payments"]);
    const files = await root().query<Listed>(SOURCES, { filter: { type: "file" } });
    expect(files.sources.nodes.map((node) => node.name)).toEqual(["orders"]);
  });
});

import { describe, expect, it } from "vitest";
import {
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  mutate,
  seed,
  seedChain,
  type GraphQLClient,
  type GraphQLResponse,
} from "../src/index.ts";

interface Sent {
  query: string;
  variables: Record<string, unknown> | undefined;
}

/** A client that records what it is sent and answers from `answer`, as a registry would over HTTP. */
function fakeClient(answer: (sent: Sent) => Omit<GraphQLResponse<unknown>, "status">) {
  const sent: Sent[] = [];
  const client: GraphQLClient = {
    async request<T>(query: string, variables?: Record<string, unknown>) {
      sent.push({ query, variables });
      return { status: 200, ...answer({ query, variables }) } as GraphQLResponse<T>;
    },
  };
  return { client, sent };
}

/** Echoes each create's input back as the created object, as the registry does. */
function echo({ query, variables }: Sent) {
  const input = variables?.input as Record<string, unknown>;
  if (query === DECLARE_CLUSTER)
    return {
      data: {
        declareCluster: { created: true, cluster: { provider: "registry-only", ...input }, userErrors: [] },
      },
    };
  if (query === CREATE_STREAM) return { data: { createStream: { stream: input, userErrors: [] } } };
  const fqn = `/${String(input.cluster)}/${String(input.stream)}`;
  return { data: { createBinding: { binding: { fqn, isDefault: true }, userErrors: [] } } };
}

describe("mutate", () => {
  it("returns the payload of the one mutation the document selects", async () => {
    const { client } = fakeClient(() => ({
      data: { createStream: { stream: { name: "s" }, userErrors: [] } },
    }));
    expect(await mutate(client, CREATE_STREAM, { input: { name: "s" } })).toEqual({
      stream: { name: "s" },
      userErrors: [],
    });
  });

  it("fails on userErrors, showing them and what was asked", async () => {
    const refusal = {
      code: "ALREADY_EXISTS",
      field: ["input", "name"],
      message: 'stream "s" already exists',
    };
    const { client } = fakeClient(() => ({
      data: { createStream: { stream: null, userErrors: [refusal] } },
    }));
    const failed = mutate(client, CREATE_STREAM, { input: { name: "s" } });
    await expect(failed).rejects.toThrow(/createStream with \{"input":\{"name":"s"\}\} returned userErrors/);
    await expect(failed).rejects.toThrow(/ALREADY_EXISTS[\s\S]*stream \\"s\\" already exists/);
  });

  it("fails on GraphQL errors, with the HTTP status", async () => {
    const { client } = fakeClient(() => ({
      errors: [
        { message: "the registry's database is unavailable", extensions: { code: "DATABASE_UNAVAILABLE" } },
      ],
    }));
    await expect(mutate(client, CREATE_STREAM, { input: { name: "s" } })).rejects.toThrow(
      /createStream .* failed \(HTTP 200\):[\s\S]*DATABASE_UNAVAILABLE/,
    );
  });

  it("refuses a document that selects no userErrors, or several mutations", async () => {
    const { client } = fakeClient(({ query }) =>
      query.includes("b:")
        ? { data: { a: { userErrors: [] }, b: { userErrors: [] } } }
        : { data: { deleteStream: { deleted: true } } },
    );
    await expect(
      mutate(client, `mutation { deleteStream(input: { name: "s" }) { deleted } }`),
    ).rejects.toThrow("deleteStream has no userErrors in its selection");
    await expect(mutate(client, "mutation { a: x { userErrors } b: x { userErrors } }")).rejects.toThrow(
      "selected 2 fields",
    );
  });
});

describe("seed", () => {
  it("creates what it is given and returns the created object", async () => {
    const { client, sent } = fakeClient(echo);
    const config = { "acme.kafka": { team: "t" } };
    expect(await seed(client).cluster({ name: "c1", provider: "test", config })).toEqual({
      name: "c1",
      provider: "test",
      config,
    });
    expect(await seed(client).stream({ name: "s1", config })).toEqual({ name: "s1", config });
    expect(sent.map((s) => s.variables)).toEqual([
      { input: { name: "c1", provider: "test", config } },
      { input: { name: "s1", config } },
    ]);
  });

  it("names what it is not given uniquely, and seeds a binding's stream and cluster", async () => {
    const { client, sent } = fakeClient(echo);
    const binding = await seed(client).binding({ config: { "apache.kafka": { partitions: 3 } } });
    const [stream, cluster, bind] = sent;
    expect(stream?.query).toBe(CREATE_STREAM);
    expect(cluster?.query).toBe(DECLARE_CLUSTER);
    expect(bind?.query).toBe(CREATE_BINDING);
    expect(bind?.variables).toEqual({
      input: {
        stream: binding.stream,
        cluster: binding.cluster,
        config: { "apache.kafka": { partitions: 3 } },
      },
    });
    expect(binding).toMatchObject({ fqn: `/${binding.cluster}/${binding.stream}`, isDefault: true });
    const names = [binding.stream, binding.cluster, (await seed(client).stream()).name];
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/^[a-z]+_[0-9a-f]{4}_\d+$/);
  });

  it("binds given objects by name and fails the test when the registry refuses", async () => {
    const { client } = fakeClient(({ variables }) => ({
      data: {
        createBinding: {
          binding: null,
          userErrors: [
            {
              code: "NOT_FOUND",
              field: ["input", "cluster"],
              message: `no cluster ${String((variables?.input as { cluster: string }).cluster)}`,
            },
          ],
        },
      },
    }));
    await expect(seed(client).binding({ stream: { name: "s" }, cluster: "nowhere" })).rejects.toThrow(
      /createBinding .*returned userErrors:[\s\S]*no cluster nowhere/,
    );
  });
});

describe("seedChain", () => {
  it("makes its steps in order in the namespace of the last at(), binding its last stream on its last cluster", async () => {
    const { client, sent } = fakeClient(echo);
    const config = { "acme.kafka": { team: "widgets" } };
    const made = await seedChain(client)
      .stream({ name: "root_s" })
      .at("/aws")
      .cluster({ name: "c1" })
      .stream({ name: "orders", config })
      .binding()
      .stream({ name: "widgets" })
      .binding({ cluster: "c0", config })
      .at("/aws/leaf")
      .stream({ name: "leaf_s" });
    expect(sent.map((s) => [s.query, s.variables?.input])).toEqual([
      [CREATE_STREAM, { name: "root_s" }],
      [DECLARE_CLUSTER, { name: "c1", namespace: "/aws" }],
      [CREATE_STREAM, { name: "orders", config, namespace: "/aws" }],
      [CREATE_BINDING, { stream: "orders", cluster: "c1", namespace: "/aws" }],
      [CREATE_STREAM, { name: "widgets", namespace: "/aws" }],
      [CREATE_BINDING, { stream: "widgets", cluster: "c0", config, namespace: "/aws" }],
      [CREATE_STREAM, { name: "leaf_s", namespace: "/aws/leaf" }],
    ]);
    expect(made.streams.map((s) => s.name)).toEqual(["root_s", "orders", "widgets", "leaf_s"]);
    expect(made.clusters.map((c) => c.name)).toEqual(["c1"]);
    expect(made.bindings).toEqual([
      { fqn: "/c1/orders", isDefault: true, stream: "orders", cluster: "c1" },
      { fqn: "/c0/widgets", isDefault: true, stream: "widgets", cluster: "c0" },
    ]);
  });

  it("is a value: nothing is sent until it is awaited, and each await sends its steps again", async () => {
    const { client, sent } = fakeClient(echo);
    const base = seedChain(client).at("/aws").cluster();
    const longer = base.stream().binding();
    expect(sent).toEqual([]);
    await longer;
    expect(sent).toHaveLength(3);
    // A name left out is made when the step runs: the second run's cluster is another one.
    const again = (await base).clusters[0]?.name;
    expect(again).not.toBe((sent[0]?.variables?.input as { name: string }).name);
  });

  it("stops at the first refusal, and refuses a binding with nothing to bind", async () => {
    const { client, sent } = fakeClient(() => ({
      data: {
        createStream: { stream: null, userErrors: [{ code: "ALREADY_EXISTS", field: [], message: "taken" }] },
      },
    }));
    await expect(seedChain(client).stream({ name: "s" }).stream()).rejects.toThrow(/ALREADY_EXISTS/);
    expect(sent).toHaveLength(1);
    await expect(seedChain(client).binding({ stream: "s" })).rejects.toThrow(/needs a stream and a cluster/);
  });
});

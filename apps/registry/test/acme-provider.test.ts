import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  kafkaClient,
  seed,
  seedWidgetsStream,
  CREATE_BINDING,
  CREATE_STREAM,
  type UserErrorView,
  eventually,
} from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const BINDING_STATE = `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) {
  status { phase message } observed { details } effectiveConfig { config } } }`;

const { name: _seedName, ...widgets } = seedWidgetsStream;

/** The userErrors of a mutation expected to be refused. */
async function errorsOf(r: TestRegistry, mutation: string, input: unknown): Promise<UserErrorView[]> {
  const data = await r.query<Record<string, { userErrors: UserErrorView[] }>>(mutation, { input });
  return Object.values(data)[0]!.userErrors;
}

describe("the acme provider, loaded by package name", () => {
  const kafka = useSharedKafkaClusters();
  const registry = useTestRegistry("pglite", { REGISTRY_PROVIDERS: "@stream-registry/provider-acme" });
  const suffix = randomBytes(3).toString("hex");
  const cluster = `cluster001_${suffix}`;
  const stream = `widgets_v0_${suffix}`;

  it("realizes the seed's widgets_v0 on an acme cluster as a real, labelled topic", async () => {
    const r = registry();
    const bootstrap = kafka.at(0).bootstrapServers;
    await seed(r).cluster({
      name: cluster,
      provider: "acme",
      config: { "apache.kafka": { "bootstrap.servers": bootstrap } },
    });
    await seed(r).stream({ name: stream, ...widgets });
    // The seed asks for 4 replicas; the test cluster has one broker, which the provider says, naming the field.
    expect(await errorsOf(r, CREATE_BINDING, { stream, cluster })).toEqual([
      expect.objectContaining({
        code: "PROVIDER_REJECTED",
        field: ["input", "config", "apache.kafka", "replication"],
      }),
    ]);
    const fit = { "apache.kafka": { replication: 1, min_isr: 1 } };
    await seed(r).binding({ stream, cluster, config: fit });

    const online = await eventually(
      async () => {
        const { binding } = await r.query<{
          binding: { status: { phase: string }; observed: { details: Record<string, unknown> } | null };
        }>(BINDING_STATE, { stream, cluster });
        return binding?.status.phase === "ONLINE" ? binding : undefined;
      },
      30_000,
      "ONLINE",
    );
    expect(online.observed?.details).toMatchObject({
      partitions: 10,
      acme: { owner: "bob@acme.com", team: "widgets-team", costcenter: "341D" },
    });
    const admin = kafkaClient(bootstrap).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [stream] });
      expect(topics[0]?.partitions).toHaveLength(10);
    } finally {
      await admin.disconnect();
    }
  }, 60_000);

  it("refuses an owner that is not an e-mail address wherever acme.kafka appears", async () => {
    const r = registry();
    const config = { "acme.kafka": { ...widgets.config["acme.kafka"], owner: "bob" } };
    expect(await errorsOf(r, CREATE_STREAM, { name: `bad_owner_${suffix}`, config })).toEqual([
      {
        code: "INVALID_INPUT",
        field: ["input", "config", "acme.kafka", "owner"],
        message: '"owner" must be an e-mail address, e.g. bob@acme.com; got "bob"',
      },
    ]);
  });

  it("requires acme.kafka on a stream bound to an acme cluster, naming the map", async () => {
    const r = registry();
    const name = `no_acme_${suffix}`;
    await seed(r).stream({ name, config: { "apache.kafka": { partitions: 1 } } });
    expect(await errorsOf(r, CREATE_BINDING, { stream: name, cluster })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "config", "acme.kafka"] }),
    ]);
  });
});

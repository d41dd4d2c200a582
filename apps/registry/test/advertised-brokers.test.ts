import { registryNode, type RegistryNode } from "@stream-registry/testkit";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Payload {
  declareCluster: {
    cluster: { name: string } | null;
    userErrors: { code: string; field: string[]; message: string }[];
  };
}
const DECLARE_CLUSTER = `mutation ($input: DeclareClusterInput!) {
  declareCluster(input: $input) { cluster { name } userErrors { code field message } } }`;
const CLUSTER = `query ($name: String!) { cluster(name: $name) { name health { status } } }`;
const CHANGES = "{ changes(first: 500) { nodes { entityType entityKey } } }";

/**
 * Issue 19, Must 4, against real brokers: the shared test clusters advertise 127.0.0.1:<port>. A
 * registry process in production allowed to connect to the first one by the name localhost only
 * refuses a cluster bootstrapped there (the bootstrap address passes, the advertised broker does
 * not), before its client connects to the advertised broker; the second one, allowed at the
 * address it advertises, is declared as before.
 */
describe("brokers a cluster advertises outside REGISTRY_CONNECT_ALLOW", () => {
  const kafka = useSharedKafkaClusters();
  const port = (index: number) => Number(kafka.at(index).bootstrapServers.split(":")[1]);
  let registry: RegistryNode;
  beforeAll(async () => {
    registry = await registryNode("/", "pglite", {
      NODE_ENV: "production",
      REGISTRY_AUTH: "on",
      REGISTRY_CONNECT_ALLOW: `localhost:${port(0)},127.0.0.1:${port(1)}`,
    });
    await registry.start();
  }, 180_000);
  afterAll(() => registry?.dispose());

  const declare = (name: string, bootstrap: string) =>
    registry.request<Payload>(DECLARE_CLUSTER, {
      input: { name, provider: "kafka", config: { "apache.kafka": { "bootstrap.servers": bootstrap } } },
    });

  it("refuses a cluster that advertises a broker outside the list: INVALID_INPUT naming the field and the broker, nothing stored", async () => {
    const response = await declare("advertising", `localhost:${port(0)}`);
    expect(response.errors).toBeUndefined();
    expect(response.data!.declareCluster).toEqual({
      cluster: null,
      userErrors: [
        {
          code: "INVALID_INPUT",
          field: ["input", "config", "apache.kafka", "bootstrap.servers"],
          message:
            `the cluster advertises broker 127.0.0.1:${port(0)}, which is not in ` +
            "REGISTRY_CONNECT_ALLOW: this registry connects only to the hosts and networks its operator allows",
        },
      ],
    });
    expect(JSON.stringify(response)).not.toMatch(/KafkaJS|Connection error|ECONN/);
    expect(await registry.query(CLUSTER, { name: "advertising" })).toEqual({ cluster: null });
    const changes = await registry.query<{ changes: { nodes: { entityKey: string }[] } }>(CHANGES);
    expect(changes.changes.nodes.map((change) => change.entityKey)).not.toContain("advertising");
  }, 60_000);

  it("declares a cluster whose advertised broker is allowed, as before", async () => {
    const response = await declare("allowed", `127.0.0.1:${port(1)}`);
    expect(response.data!.declareCluster).toEqual({ cluster: { name: "allowed" }, userErrors: [] });
    expect(await registry.query(CLUSTER, { name: "allowed" })).toEqual({
      cluster: { name: "allowed", health: { status: "UP" } },
    });
  }, 60_000);
});

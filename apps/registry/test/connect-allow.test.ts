import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mutate, TREE_TOKEN, DECLARE_CLUSTER } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";
import { refusal } from "./support/connect-allow.ts";
import { publicJwk } from "./support/seed-tree.ts";

/** A TCP server on 127.0.0.1 that counts the connections it gets and closes each at once. */
async function countingServer(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { server, port: address.port, connections: () => connections };
}

/** A port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const { server, port } = await countingServer();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Started before the registry: their ports are in its environment.
const trap = await countingServer(); // open, and not allowed: must never be connected to
const allowed = await countingServer(); // the one allowed address
const closed = await closedPort();
const operators = await countingServer(); // where the operator's preset points: not in the list
const presetsDir = mkdtempSync(join(tmpdir(), "sr-connect-allow-"));
const presetsFile = join(presetsDir, "clusters.json");
afterAll(async () => {
  await Promise.all(
    [trap, allowed, operators].map(({ server }) => new Promise((resolve) => server.close(resolve))),
  );
  rmSync(presetsDir, { recursive: true, force: true });
});

const FIELD = ["input", "config", "apache.kafka", "bootstrap.servers"];
/** Quick to give up on what is not Kafka. */
const kafka = (servers: string) => ({
  "apache.kafka": {
    "bootstrap.servers": servers,
    "socket.connection.setup.timeout.ms": 300,
    "request.timeout.ms": 300,
    "default.api.timeout.ms": 800,
  },
});
writeFileSync(
  presetsFile,
  JSON.stringify({ preset1: { provider: "kafka", config: kafka(`127.0.0.1:${operators.port}`) } }),
);

interface Payload {
  cluster?: { name: string; provider: string; generation: number } | null;
  userErrors: { code: string; field: string[]; message: string }[];
}
const DECLARE = `mutation ($input: DeclareClusterInput!) {
  declareCluster(input: $input) { cluster { name provider generation } userErrors { code field message } } }`;
const CLUSTER = `query ($name: String!) { cluster(name: $name) { name provider generation } }`;
const CHANGES = "{ changes(first: 500) { nodes { entityType entityKey } } }";
const DECLARE_PARENT = `mutation ($input: DeclareParentRegistryInput!) {
  declareParentRegistry(input: $input) { parent { url } userErrors { code field message } } }`;
const REGISTER_CHILD = `mutation ($input: RegisterChildRegistryInput!) {
  registerChildRegistry(input: $input) { child { path url } userErrors { code field message } } }`;

/**
 * A registry process in production allowed to connect to 127.0.0.1 at one port (`allowed`'s) and
 * to names below allowed.test: everything else a caller names is refused before any connection
 * (`trap` counts them).
 */
describe("REGISTRY_CONNECT_ALLOW at a registry process in production", () => {
  const registry = useRegistryProcess("pglite", {
    NODE_ENV: "production",
    REGISTRY_AUTH: "on",
    REGISTRY_CONNECT_ALLOW: `127.0.0.1:${allowed.port},*.allowed.test`,
    REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN,
    REGISTRY_CLUSTERS_FILE: presetsFile,
  });
  const declare = async (name: string, config: Record<string, unknown>, provider = "kafka") => {
    const response = await registry().request<{ declareCluster: Payload }>(DECLARE, {
      input: { name, provider, config },
    });
    return response;
  };
  const changedKeys = async () =>
    (await registry().query<{ changes: { nodes: { entityKey: string }[] } }>(CHANGES)).changes.nodes.map(
      (n) => n.entityKey,
    );

  it("says at start what it allows", () => {
    expect(
      registry()
        .entries()
        .find((e) => e.msg?.toString().includes("REGISTRY_CONNECT_ALLOW")),
    ).toMatchObject({
      connectAllow: `127.0.0.1:${allowed.port},*.allowed.test`,
    });
  });

  it("refuses a kafka cluster at an address not allowed, naming the field: nothing stored, nothing connected", async () => {
    const before = await changedKeys();
    const response = await declare("scan1", kafka(`127.0.0.1:${trap.port}`));
    expect(response.errors).toBeUndefined();
    expect(response.data!.declareCluster).toEqual({
      cluster: null,
      userErrors: [
        {
          code: "INVALID_INPUT",
          field: FIELD,
          message: refusal("bootstrap server", `127.0.0.1:${trap.port}`),
        },
      ],
    });
    expect((await registry().query<{ cluster: unknown }>(CLUSTER, { name: "scan1" })).cluster).toBeNull();
    expect(await changedKeys()).toEqual(before);
    expect(trap.connections()).toBe(0);
  });

  it("answers alike for an open port, a closed one, a name that does not exist and a private address", async () => {
    const targets = [
      `127.0.0.1:${trap.port}`,
      `127.0.0.1:${closed}`,
      `localhost:${trap.port}`, // a name not listed: resolved, to addresses not allowed at that port
      `no-such-host.invalid:9092`,
      `10.1.2.3:5432`,
      `[::1]:${allowed.port}`,
    ];
    for (const target of targets) {
      const started = Date.now();
      const response = await declare("scan2", kafka(target));
      const { userErrors } = response.data!.declareCluster;
      expect(userErrors).toHaveLength(1);
      expect(userErrors[0]!.field).toEqual(FIELD);
      expect(userErrors[0]!.message.replace(target, "<address>")).toBe(
        refusal("bootstrap server", "<address>"),
      );
      // Refused before connecting: not the connection timeout of an unreachable one.
      expect(Date.now() - started).toBeLessThan(2_500);
    }
    expect(trap.connections()).toBe(0);
    expect(allowed.connections()).toBe(0);
  });

  it("refuses the whole cluster if one bootstrap server is not allowed, connecting to none", async () => {
    const response = await declare("scan3", kafka(`127.0.0.1:${allowed.port},127.0.0.1:${trap.port}`));
    expect(response.data!.declareCluster.userErrors).toEqual([
      { code: "INVALID_INPUT", field: FIELD, message: refusal("bootstrap server", `127.0.0.1:${trap.port}`) },
    ]);
    expect(trap.connections()).toBe(0);
    expect(allowed.connections()).toBe(0);
  });

  it("refuses a kafka cluster whose external schema registry is at an address not allowed", async () => {
    const config = {
      ...kafka(`127.0.0.1:${allowed.port}`),
      "schema.registry": { url: `http://127.0.0.1:${trap.port}/sr` },
    };
    const response = await declare("scan4", config);
    expect(response.data!.declareCluster.userErrors).toEqual([
      {
        code: "INVALID_INPUT",
        field: ["input", "config", "schema.registry", "url"],
        message: refusal("schema registry", `127.0.0.1:${trap.port}`),
      },
    ]);
    expect(trap.connections()).toBe(0);
    expect(allowed.connections()).toBe(0);
  });

  it("refuses a kafka cluster whose Kafka Connect worker is at an address not allowed", async () => {
    const config = {
      ...kafka(`127.0.0.1:${allowed.port}`),
      "kafka.connect": { url: `http://127.0.0.1:${trap.port}` },
    };
    const response = await declare("scan5", config);
    expect(response.data!.declareCluster.userErrors).toEqual([
      {
        code: "INVALID_INPUT",
        field: ["input", "config", "kafka.connect", "url"],
        message: refusal("Kafka Connect worker", `127.0.0.1:${trap.port}`),
      },
    ]);
    expect(trap.connections()).toBe(0);
    expect(allowed.connections()).toBe(0);
  });

  it("refuses re-pointing an existing cluster, which stays as it was", async () => {
    await mutate(registry(), DECLARE_CLUSTER, { input: { name: "meta", provider: "registry-only" } });
    const before = await registry().query<{ cluster: { generation: number } }>(CLUSTER, { name: "meta" });
    const response = await declare("meta", kafka(`127.0.0.1:${trap.port}`));
    expect(response.data!.declareCluster.userErrors.map((e) => e.field)).toEqual([FIELD]);
    expect(await registry().query(CLUSTER, { name: "meta" })).toEqual({
      cluster: { name: "meta", provider: "registry-only", generation: before.cluster.generation },
    });
    expect(trap.connections()).toBe(0);
  });

  it("refuses clusters of a provider that does not say where it connects", async () => {
    const response = await declare("opaque", {}, "test");
    expect(response.data!.declareCluster.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "provider"] }),
    ]);
    expect(response.data!.declareCluster.userErrors[0]!.message).toContain("clusterEndpoints");
  });

  it("lets a cluster at an allowed address through to the provider, which connects there", async () => {
    // Not Kafka: the provider's validation fails as an outage, after it connected.
    const response = await declare("ok1", kafka(`127.0.0.1:${allowed.port}`));
    expect(response.errors?.[0]?.extensions?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(allowed.connections()).toBeGreaterThan(0);
    // A name below the allowed wildcard passes as it is; it then does not resolve.
    const named = await declare("ok2", kafka("broker1.allowed.test:9092"));
    expect(named.errors?.[0]?.extensions?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(trap.connections()).toBe(0);
  }, 30_000);

  it("does not check the addresses of the operator's own presets (REGISTRY_CLUSTERS_FILE); a caller's are", async () => {
    const repointed = await declare("preset1", kafka(`127.0.0.1:${trap.port}`));
    expect(repointed.data!.declareCluster.userErrors.map((e) => e.field)).toEqual([FIELD]);
    expect(operators.connections()).toBe(0);
    // The preset's own address, not in the list: the provider connects there (it is not Kafka).
    const response = await registry().request(`mutation { declareCluster(input: { name: "preset1" }) {
      cluster { name } userErrors { code field message } } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(operators.connections()).toBeGreaterThan(0);
    expect(trap.connections()).toBe(0);
  }, 30_000);

  it("refuses a parent registry URL not allowed, naming the field: no link, nothing connected", async () => {
    await mutate(
      registry(),
      `mutation { declareDefaultNamespace(input: { name: "leaf" }) { userErrors { code field message } } }`,
    );
    const response = await registry().request<{ declareParentRegistry: Payload }>(DECLARE_PARENT, {
      input: { url: `http://127.0.0.1:${trap.port}/graphql`, token: TREE_TOKEN },
    });
    expect(response.data!.declareParentRegistry).toEqual({
      parent: null,
      userErrors: [
        {
          code: "INVALID_INPUT",
          field: ["input", "url"],
          message: refusal("parent registry URL", `127.0.0.1:${trap.port}`),
        },
      ],
    });
    expect(
      (await registry().query<{ namespace: { parent: unknown } }>("{ namespace { parent { url } } }"))
        .namespace.parent,
    ).toBeNull();
    expect(trap.connections()).toBe(0);
    // An allowed one is called (it is no registry: refused as unreachable, after connecting).
    const connected = allowed.connections();
    const other = await registry().request<{ declareParentRegistry: Payload }>(DECLARE_PARENT, {
      input: { url: `http://127.0.0.1:${allowed.port}/graphql`, token: TREE_TOKEN },
    });
    expect(JSON.stringify(other)).not.toContain("REGISTRY_CONNECT_ALLOW");
    expect(allowed.connections()).toBeGreaterThan(connected);
  }, 30_000);

  it("refuses a child registering a URL not allowed (the parent would call it); an allowed one is called", async () => {
    const sdl = (await registry().query<{ _service: { sdl: string } }>("{ _service { sdl } }"))._service.sdl;
    const input = {
      registryId: "5b0c1e4e-8f3a-4c1e-9a57-0d6f3f0c2a11",
      name: "kid",
      version: "0.0.1",
      sdl,
      token: TREE_TOKEN,
      keys: [publicJwk()],
    };
    const refused = await registry().request<{ registerChildRegistry: Payload }>(REGISTER_CHILD, {
      input: { ...input, url: `http://127.0.0.1:${trap.port}/graphql` },
    });
    expect(refused.data!.registerChildRegistry).toEqual({
      child: null,
      userErrors: [
        {
          code: "INVALID_INPUT",
          field: ["input", "url"],
          message: refusal("child registry URL", `127.0.0.1:${trap.port}`),
        },
      ],
    });
    const children = async () =>
      (
        await registry().query<{ namespace: { children: { name: string }[] } }>(
          "{ namespace { children { name } } }",
        )
      ).namespace.children;
    expect(await children()).toEqual([]);
    // Allowed, the URL is called back (issue 19): nothing answers there as the child, so it is
    // refused for that, not by the allow-list.
    const called = await registry().request<{ registerChildRegistry: Payload }>(REGISTER_CHILD, {
      input: { ...input, url: "https://kid.allowed.test/graphql" },
    });
    expect(called.data!.registerChildRegistry.userErrors).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["input", "url"],
        message: expect.stringMatching(/^url must answer as the registering registry .*does not answer/),
      }),
    ]);
    expect(JSON.stringify(called)).not.toContain("REGISTRY_CONNECT_ALLOW");
    expect(await children()).toEqual([]);
    expect(trap.connections()).toBe(0);
  });
});

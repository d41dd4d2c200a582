import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  databaseEnv,
  databaseKinds,
  type TestDatabase,
  postGraphQL,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DESCRIBE_BINDINGS,
  spawnRegistry,
  type RegistryProcess,
  eventually,
  testProviderModule,
} from "@stream-registry/testkit";

interface Described {
  bindings: {
    nodes: { cluster: { name: string }; status: { phase: string; observedGeneration: number | null } }[];
  };
}

describe.each(databaseKinds)("durability on %s", (kind) => {
  const processes: RegistryProcess[] = [];
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;

  afterEach(async (context) => {
    for (const p of processes.splice(0)) {
      if (context.task.result?.state === "fail") console.error(p.logs.slice(-60).join("\n")); // eslint-disable-line no-console
      p.kill("SIGKILL");
      await p.exited;
    }
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<RegistryProcess> {
    const p = await spawnRegistry({
      ...databaseEnv(database?.url, dataDir),
      REGISTRY_PROVIDERS: testProviderModule,
      RECONCILER_CONCURRENCY: "1",
      RECONCILER_LEASE_MS: "1500",
      RECONCILER_POLL_MS: "200",
      SHUTDOWN_TIMEOUT_MS: "500",
    });
    processes.push(p);
    return p;
  }

  it("finishes work that was pending or in flight when the process was killed", async () => {
    database = await createTestDatabase(kind, "durability");
    dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-durability-")) : undefined;
    const first = await start();
    const gql = (p: RegistryProcess, query: string, variables?: Record<string, unknown>) =>
      postGraphQL(p.url, query, variables);

    await gql(first, DECLARE_CLUSTER, { input: { name: "slow-a", provider: "test" } });
    await gql(first, DECLARE_CLUSTER, { input: { name: "slow-b", provider: "test" } });
    await gql(first, CREATE_STREAM, {
      input: { name: "durable_s", config: { "test.provider": { delayMs: 2000 } } },
    });
    for (const cluster of ["slow-a", "slow-b"]) {
      const created = await gql(first, CREATE_BINDING, { input: { stream: "durable_s", cluster } });
      expect(created.data).toMatchObject({
        createBinding: { binding: { status: { phase: "PENDING" } }, userErrors: [] },
      });
    }
    // With one worker, one binding is in the provider's hands and the other waits in the queue.
    await eventually(
      async () => first.entries().find((e) => e.msg === "reconcile started"),
      10_000,
      "a reconcile to start",
    );
    first.kill("SIGKILL");
    await first.exited;

    const second = await start();
    const described = await eventually(
      async () => {
        const { data } = await postGraphQL<Described>(second.url, DESCRIBE_BINDINGS, { stream: "durable_s" });
        const nodes = data?.bindings.nodes ?? [];
        return nodes.length === 2 && nodes.every((n) => n.status.phase === "ONLINE") ? nodes : undefined;
      },
      30_000,
      "both bindings ONLINE after restart",
    );
    expect(described.map((n) => [n.cluster.name, n.status.observedGeneration])).toEqual([
      ["slow-a", 1],
      ["slow-b", 1],
    ]);
  }, 120_000);

  it("shuts down gracefully on SIGTERM, giving back its job leases", async () => {
    database = await createTestDatabase(kind, "shutdown");
    dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "sr-shutdown-")) : undefined;
    const first = await start();
    await postGraphQL(first.url, DECLARE_CLUSTER, { input: { name: "slow-c", provider: "test" } });
    await postGraphQL(first.url, CREATE_STREAM, {
      input: { name: "term_s", config: { "test.provider": { delayMs: 5000 } } },
    });
    await postGraphQL(first.url, CREATE_BINDING, { input: { stream: "term_s", cluster: "slow-c" } });
    await eventually(
      async () => first.entries().find((e) => e.msg === "reconcile started"),
      10_000,
      "a reconcile to start",
    );

    first.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // The in-flight reconcile outlived the drain timeout: it was cut short and its lease given back.
    expect(first.entries()).toContainEqual(
      expect.objectContaining({ msg: "reconcile", outcome: "released" }),
    );
    expect(first.entries()).toContainEqual(
      expect.objectContaining({ msg: "reconciler stopped", drained: false }),
    );

    const second = await start();
    await eventually(
      async () => {
        const { data } = await postGraphQL<Described>(second.url, DESCRIBE_BINDINGS, { stream: "term_s" });
        return data?.bindings.nodes[0]?.status.phase === "ONLINE" ? true : undefined;
      },
      30_000,
      "the binding ONLINE after restart",
    );
  }, 120_000);
});

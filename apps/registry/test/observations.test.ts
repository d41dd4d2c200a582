import { describe, expect, it } from "vitest";
import {
  databaseKinds,
  bindingKey,
  testPlatform,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  eventually,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

const OBSERVED = `query($stream: String!, $cluster: String!) { binding(stream: $stream, cluster: $cluster) {
  status { phase observedGeneration message } observed { message details observedAt } } }`;
const CHANGES = `{ changes(first: 500) { nodes { entityKey action data } } }`;

interface ObservedView {
  status: { phase: string; observedGeneration: number | null; message: string | null };
  observed: { message: string | null; details: Record<string, unknown>; observedAt: string } | null;
}

async function observed(r: TestRegistry, stream: string, cluster: string): Promise<ObservedView> {
  const { binding } = await r.query<{ binding: ObservedView | null }>(OBSERVED, { stream, cluster });
  if (!binding) throw new Error(`no binding ${cluster}/${stream}`);
  return binding;
}

function observedWhen(
  r: TestRegistry,
  stream: string,
  cluster: string,
  accept: (b: ObservedView) => boolean,
  what: string,
) {
  return eventually(
    async () => {
      const b = await observed(r, stream, cluster);
      return accept(b) ? b : undefined;
    },
    15_000,
    what,
  );
}

async function bindOnTestCluster(r: TestRegistry, cluster: string, stream: string, partitions: number) {
  await r.query(DECLARE_CLUSTER, {
    input: { name: cluster, provider: "test", config: { "test.provider": {} } },
  });
  await r.query(CREATE_STREAM, { input: { name: stream, config: { "test.provider": { partitions } } } });
  await r.query(CREATE_BINDING, { input: { stream, cluster } });
  return observedWhen(r, stream, cluster, (b) => b.status.phase === "ONLINE", "ONLINE");
}

describe.each(databaseKinds)("binding observations on %s", (kind) => {
  const registry = useTestRegistry(kind, { RECONCILER_RESYNC_MS: "300" });

  it("stores what the provider reported when it realized the binding", async () => {
    const r = registry();
    const before = Date.now();
    const online = await bindOnTestCluster(r, `obs_c_${kind}`, `obs_s_${kind}`, 3);
    expect(online.observed).toMatchObject({ details: { partitions: 3, records: 0 } });
    expect(online.observed!.message).toMatch(/^created after 1 attempt|^present on the test platform$/);
    expect(Date.parse(online.observed!.observedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("shows a registry-only binding's observation once ONLINE", async () => {
    const r = registry();
    await r.query(DECLARE_CLUSTER, { input: { name: `plain_${kind}` } });
    await r.query(CREATE_STREAM, { input: { name: `plain_s_${kind}` } });
    await r.query(CREATE_BINDING, { input: { stream: `plain_s_${kind}`, cluster: `plain_${kind}` } });
    const online = await observedWhen(
      r,
      `plain_s_${kind}`,
      `plain_${kind}`,
      (b) => b.status.phase === "ONLINE" && b.observed !== null,
      "ONLINE with an observation",
    );
    expect(online.observed!.message).toContain("registry-only");
    expect(online.observed!.details).toEqual({});
  });

  it("refreshes observations of ONLINE bindings: changes made on the platform show within a resync", async () => {
    const r = registry();
    const [cluster, stream] = [`drift_c_${kind}`, `drift_s_${kind}`];
    await bindOnTestCluster(r, cluster, stream, 2);
    // Someone changes the resource behind the registry's back.
    testPlatform().bindings.set(bindingKey(cluster, stream), { "test.provider": { partitions: 7 } });
    const refreshed = await observedWhen(
      r,
      stream,
      cluster,
      (b) => b.observed?.details.partitions === 7,
      "the new partition count",
    );
    expect(refreshed.observed!.message).toBe("present on the test platform");
    expect(refreshed.status.phase).toBe("ONLINE");
  });

  it("re-creates a resource that vanished from the platform, recording why", async () => {
    const r = registry();
    const [cluster, stream] = [`gone_c_${kind}`, `gone_s_${kind}`];
    const online = await bindOnTestCluster(r, cluster, stream, 4);
    const firstSeen = online.observed!.observedAt;
    testPlatform().bindings.delete(bindingKey(cluster, stream));
    await eventually(
      async () => (testPlatform().bindings.has(bindingKey(cluster, stream)) ? true : undefined),
      15_000,
      "the resource to be re-created",
    );
    const back = await observedWhen(
      r,
      stream,
      cluster,
      (b) => b.status.phase === "ONLINE" && b.observed !== null && b.observed.observedAt > firstSeen,
      "ONLINE again",
    );
    expect(back.status.observedGeneration).toBe(1);
    expect(back.observed!.details).toMatchObject({ partitions: 4 });
    const { changes } = await r.query<{
      changes: { nodes: { entityKey: string; action: string; data: { phase?: string; message?: string } }[] };
    }>(CHANGES);
    const history = changes.nodes.filter(
      (c) => c.entityKey === `/${cluster}/${stream}` && c.action === "status",
    );
    expect(history.map((c) => c.data.phase)).toEqual(["ONLINE", "PENDING", "ONLINE"]);
    expect(history[1]!.data.message).toBe(`missing on cluster "${cluster}" (found by resync); re-creating`);
  });
});

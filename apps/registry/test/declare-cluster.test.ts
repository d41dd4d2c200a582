import { describe, expect, it } from "vitest";
import { mutate, seed, DECLARE_CLUSTER, type UserErrorView } from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";

interface Payload {
  userErrors: UserErrorView[];
  created: boolean | null;
  cluster: { name: string; provider: string; config: unknown; generation: number } | null;
}

/** A DECLARE CLUSTER that must succeed. */
function declare(r: TestRegistry, input: Record<string, unknown>): Promise<Payload> {
  return mutate<Payload>(r, DECLARE_CLUSTER, { input });
}

// The test provider stands for Kafka: a provider with a connection config.
const reach = { "test.provider": { maxPartitions: 50 }, "acme.site": { region: "eu" } };

describe("DECLARE CLUSTER is idempotent", () => {
  const registry = useTestRegistry("pglite");

  it('keeps the provider and config of a cluster when a later DECLARE names neither (the seed\'s `DECLARE CLUSTER "c";`)', async () => {
    const r = registry();
    const first = await declare(r, { name: "idem-1", provider: "test", config: reach });
    const again = await declare(r, { name: "idem-1" });
    expect(again).toMatchObject({
      created: false,
      cluster: { provider: "test", config: reach, generation: first.cluster!.generation },
    });
    // Naming only the provider keeps the config too.
    const sameProvider = await declare(r, { name: "idem-1", provider: "test" });
    expect(sameProvider.cluster).toMatchObject({ config: reach, generation: first.cluster!.generation });
  });

  it("keeps the provider when only the config is given", async () => {
    const r = registry();
    await declare(r, { name: "idem-2", provider: "test", config: reach });
    const changed = await declare(r, { name: "idem-2", config: { "test.provider": { maxPartitions: 5 } } });
    expect(changed.cluster).toMatchObject({
      provider: "test",
      config: { "test.provider": { maxPartitions: 5 }, "acme.site": { region: "eu" } },
      generation: 2,
    });
  });

  it("changes the provider of a cluster without bindings, and refuses it with bindings (IN_USE on input.provider)", async () => {
    const r = registry();
    await declare(r, { name: "idem-3", provider: "test", config: reach });
    const toRegistryOnly = await declare(r, { name: "idem-3", provider: "registry-only" });
    expect(toRegistryOnly.cluster).toMatchObject({ provider: "registry-only", generation: 2 });

    await seed(r).binding({ cluster: "idem-3" });
    const refused = await r.query<{ declareCluster: Payload }>(DECLARE_CLUSTER, {
      input: { name: "idem-3", provider: "test" },
    });
    expect(refused.declareCluster.userErrors).toEqual([
      expect.objectContaining({
        code: "IN_USE",
        field: ["input", "provider"],
        message: expect.stringContaining('cannot change from "registry-only" to "test"'),
      }),
    ]);
    // A bare DECLARE of the bound cluster is still fine: it changes nothing.
    const bare = await declare(r, { name: "idem-3" });
    expect(bare.cluster).toMatchObject({ provider: "registry-only", generation: 2 });
  });
});

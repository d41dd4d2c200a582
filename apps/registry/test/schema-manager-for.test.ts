import { describe, expect, it } from "vitest";
import type { ClusterTarget, SchemaManager } from "@stream-registry/provider-api";
import { pickSchemaManager, type ChosenSchemaManager } from "../src/schema-registry/schema-manager-for.ts";

const cluster: ClusterTarget = {
  namespace: "/",
  name: "c1",
  config: { "schema.registry": { url: "http://sr" } },
};
const own: ChosenSchemaManager = {
  manager: {} as SchemaManager,
  cluster: { namespace: "/", name: "", config: {} },
  builtIn: true,
};

/** Which schema registry a stream's schemas go to, once its default binding's provider has a manager. */
describe("pickSchemaManager", () => {
  it("takes the provider's manager when it serves the cluster, or says nothing", () => {
    const silent = {} as SchemaManager;
    expect(pickSchemaManager(silent, cluster, own)).toEqual({ manager: silent, cluster, builtIn: false });
    const serving = { servesCluster: (c: ClusterTarget) => c.name === "c1" } as unknown as SchemaManager;
    expect(pickSchemaManager(serving, cluster, own).manager).toBe(serving);
  });

  it("keeps the built-in registry when the provider does not serve the cluster", () => {
    const declining = { servesCluster: () => false } as unknown as SchemaManager;
    expect(pickSchemaManager(declining, cluster, own)).toBe(own);
  });
});

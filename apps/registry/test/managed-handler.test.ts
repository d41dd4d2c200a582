import { describe, expect, it } from "vitest";
import { Keyring, generateSecretKey, Phase, type Cluster, type ResourceStatus } from "@stream-registry/core";
import {
  configRejected,
  isPermanentProviderError,
  isProviderError,
  type ClusterTarget,
  type ResourceManager,
  type StreamProvider,
} from "@stream-registry/provider-api";
import { BINDING_RESOURCE } from "@stream-registry/store";
import { ProviderRegistry } from "../src/providers/provider-registry.ts";
import { registryOnlyProvider } from "../src/providers/registry-only.ts";
import { managedHandler, type ManagedKindDeps } from "../src/reconciler/handlers/managed-handler.ts";

// The factory's glue without a database: clusters without sealed secrets open without one.
interface Widget extends ResourceStatus {
  name: string;
  cluster: Cluster;
}
type WidgetRequest = { name: string; cluster: ClusterTarget };

const cluster = (provider: string): Cluster => ({
  id: "00000000-0000-4000-8000-000000000001",
  name: "c1",
  provider,
  config: {},
  generation: 1,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});
const widget = (name: string, provider = "widgets"): Widget => ({
  id: name,
  name,
  cluster: cluster(provider),
  generation: 1,
  observedGeneration: null,
  pendingCreates: [],
  phase: Phase.PENDING,
});
const context = { signal: new AbortController().signal };

/** A widget manager of one call each (no batch calls), refusing the widget named "refused". */
function oneByOne(calls: string[]): ResourceManager<WidgetRequest> {
  return {
    async create(request) {
      calls.push(`create ${request.name} on ${request.cluster.name}`);
      if (request.name === "refused") throw configRejected("refused");
      return { message: `made ${request.name}` };
    },
    update: async () => {},
    observe: async () => null,
    async remove(request) {
      calls.push(`remove ${request.name}`);
    },
  };
}

function widgetHandler(provider: StreamProvider & { widgets?: ResourceManager<WidgetRequest> }) {
  const deps = {
    db: {} as never,
    providers: new ProviderRegistry(new Map([[provider.kind, provider]])),
    keyring: new Keyring([generateSecretKey("test")]),
    namespace: "/",
  } satisfies ManagedKindDeps;
  return managedHandler<Widget, WidgetRequest, WidgetRequest>(deps, {
    resource: BINDING_RESOURCE,
    plural: "widgets",
    load: async () => null,
    name: (w) => w.name,
    location: (w) => `cluster "${w.cluster.name}"`,
    journaled: () => true,
    createRequest: (w) => ({ name: w.name }),
    cluster: (w) => w.cluster,
    manager: () => provider.widgets,
    request: async (w, _journaled, open) => ({ name: w.name, cluster: await open(w.cluster) }),
    target: async (w, open) => ({ name: w.name, cluster: await open(w.cluster) }),
    batchKey: (w) => w.cluster.id,
  });
}

describe("managedHandler", () => {
  it("fails a kind its cluster's provider does not support, and retries one whose provider is not loaded", async () => {
    const handler = widgetHandler({ ...registryOnlyProvider, kind: "widgets" });
    const refusal = await handler.create(widget("w"), {}, context).catch((error: unknown) => error);
    expect(isPermanentProviderError(refusal), String(refusal)).toBe(true);
    expect((refusal as Error).message).toBe('provider "widgets" does not support widgets');

    const missing = await handler.remove(widget("w", "elsewhere"), context).catch((error: unknown) => error);
    expect(isProviderError(missing)).toBe(false);
    expect((missing as Error).message).toMatch(/provider "elsewhere" is not loaded/);
  });

  it("batches one call each where the manager has no batch calls, each outcome on its own", async () => {
    const calls: string[] = [];
    const handler = widgetHandler({ ...registryOnlyProvider, kind: "widgets", widgets: oneByOne(calls) });
    const outcomes = await handler.createMany!(
      ["a", "refused", "b"].map((name) => ({ r: widget(name), request: {} })),
      context,
    );
    expect(outcomes.map((o) => (o.ok ? o.value : (o.error as Error).message))).toEqual([
      { message: "made a" },
      "refused",
      { message: "made b" },
    ]);
    expect(await handler.removeMany!([widget("a"), widget("b")], context)).toEqual([
      { ok: true, value: undefined },
      { ok: true, value: undefined },
    ]);
    expect(calls).toEqual([
      "create a on c1",
      "create refused on c1",
      "create b on c1",
      "remove a",
      "remove b",
    ]);
  });

  it("hands a batch to the manager's batch calls where it has them", async () => {
    const calls: string[] = [];
    const widgets: ResourceManager<WidgetRequest> = {
      ...oneByOne(calls),
      async createMany(requests) {
        calls.push(`createMany ${requests.map((r) => r.name).join(",")}`);
        return requests.map(() => ({ ok: true as const, value: undefined }));
      },
      async removeMany(targets) {
        calls.push(`removeMany ${targets.map((t) => t.name).join(",")}`);
        return targets.map(() => ({ ok: true as const, value: undefined }));
      },
    };
    const handler = widgetHandler({ ...registryOnlyProvider, kind: "widgets", widgets });
    await handler.createMany!(
      [
        { r: widget("a"), request: {} },
        { r: widget("b"), request: {} },
      ],
      context,
    );
    await handler.removeMany!([widget("a"), widget("b")], context);
    expect(calls).toEqual(["createMany a,b", "removeMany a,b"]);
  });
});

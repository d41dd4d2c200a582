import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defineProviderConformanceSuite } from "../src/conformance/index.ts";
import {
  bindingManager,
  type BindingRequest,
  type ConnectorRequest,
  type StreamInfrastructureManager,
} from "../src/index.ts";
import { createMemoryProvider } from "./memory-provider.ts";

const cluster = { namespace: "/", name: "memory", config: { memory: {} } };
const fresh = () => `kind_${randomBytes(4).toString("hex")}`;
const connector = (type: string) => ({
  request: (): ConnectorRequest => ({
    name: fresh(),
    type,
    cluster,
    configMaps: { memory: { shards: 1 } },
    state: "RUNNING",
  }),
  conflicting: (request: ConnectorRequest) => ({ ...request, configMaps: { memory: { shards: 2 } } }),
});

// The generic contract expresses the seed's source, sink and replication managers: a provider with
// all of them passes the one section the suite runs for every kind a provider supports.
defineProviderConformanceSuite(
  () => ({
    provider: createMemoryProvider(),
    cluster,
    unreachableCluster: { ...cluster, name: "down", config: { memory: { unreachable: true } } },
    validStream: { memory: { shards: 1 } },
    invalidStream: { configMaps: { memory: { shards: 9 } }, field: ["memory", "shards"] },
    conflictingStream: { memory: { shards: 2 } },
    observesRealInfrastructure: true,
    sources: connector("memory-source"),
    sinks: connector("memory-sink"),
    replication: {
      request: () => ({
        cluster,
        remoteCluster: { ...cluster, name: "remote" },
        remoteStream: fresh(),
        remoteNamespace: "/",
      }),
    },
  }),
  { title: "memory provider conformance (every realized kind)" },
);

describe("bindingManager", () => {
  const request: BindingRequest = {
    streamName: "s",
    cluster,
    configMaps: {},
    producerConfig: {},
    consumerConfig: {},
  };
  const context = { signal: new AbortController().signal };

  it("maps the generic calls onto the infrastructure's, which keep their receiver", async () => {
    const calls: string[] = [];
    class Infrastructure {
      readonly name = "infra";
      async createStreamBinding(r: BindingRequest) {
        calls.push(`${this.name} create ${r.streamName}`);
        return { message: "made" };
      }
      async updateStreamBinding(r: BindingRequest) {
        calls.push(`${this.name} update ${r.streamName}`);
      }
      async observeStreamBinding(streamName: string) {
        calls.push(`${this.name} observe ${streamName}`);
        return null;
      }
      async deleteStreamBinding(streamName: string) {
        calls.push(`${this.name} delete ${streamName}`);
      }
      async createStreamBindings(requests: readonly BindingRequest[]) {
        calls.push(`${this.name} create ${requests.length}`);
        return requests.map(() => ({ ok: true as const, value: undefined }));
      }
    }
    const manager = bindingManager(new Infrastructure() as unknown as StreamInfrastructureManager);
    expect(await manager.create(request, context)).toEqual({ message: "made" });
    await manager.update(request, context);
    expect(await manager.observe(request, context)).toBeNull();
    await manager.remove(request, context);
    expect(await manager.createMany!([request, request], context)).toHaveLength(2);
    expect(manager.removeMany, "no deleteStreamBindings: no removeMany").toBeUndefined();
    expect(calls).toEqual([
      "infra create s",
      "infra update s",
      "infra observe s",
      "infra delete s",
      "infra create 2",
    ]);
  });
});

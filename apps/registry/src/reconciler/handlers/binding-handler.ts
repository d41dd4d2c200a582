import { formatFqn } from "@stream-registry/core";
import { bindingManager, type BindingRequest, type BindingTarget } from "@stream-registry/provider-api";
import {
  BINDING_RESOURCE,
  findBindingsToObserve,
  findBindingsToReconcile,
  findBindingToReconcile,
  removeStreamIfDone,
  type BindingToReconcile,
} from "@stream-registry/store";
import { openedConfigSet, withOpened } from "../../providers/opened-configs.ts";
import { registryOnlyProvider } from "../../providers/registry-only.ts";
import { configSetOf, effectiveConfigSet } from "../../services/config-input.ts";
import type { ReconcileHandler } from "../handler.ts";
import { managedHandler, type ManagedKindDeps } from "./managed-handler.ts";

/**
 * Bindings, the kernel's first kind: a stream realized on a cluster by the cluster's provider
 * (a Kafka topic), through its infrastructure manager. What a create journals is the effective
 * config maps of the binding.
 */
export function bindingHandler(deps: ManagedKindDeps): ReconcileHandler<BindingToReconcile> {
  const createRequest = (binding: BindingToReconcile) => {
    const effective = effectiveConfigSet(configSetOf(binding.stream), configSetOf(binding));
    return {
      configMaps: effective.config,
      producerConfig: effective.producerConfig,
      consumerConfig: effective.consumerConfig,
    };
  };
  // The effective maps with the stream's and the binding's sealed secrets opened: the provider
  // realizes the values, while the journal and the change log only ever hold placeholders.
  const opened = async (binding: BindingToReconcile) => {
    const fqn = JSON.stringify(formatFqn(deps.namespace, binding.cluster.name, binding.stream.name));
    const stream = await openedConfigSet(
      deps,
      { kind: "stream", id: binding.stream.id, what: `stream ${JSON.stringify(binding.stream.name)}` },
      configSetOf(binding.stream),
    );
    const own = await openedConfigSet(
      deps,
      { kind: "binding", id: binding.id, what: `binding ${fqn}` },
      configSetOf(binding),
    );
    return effectiveConfigSet(stream, own);
  };

  return managedHandler<BindingToReconcile, BindingRequest, BindingTarget>(deps, {
    resource: BINDING_RESOURCE,
    plural: "stream bindings",
    load: (id) => findBindingToReconcile(deps.db.prisma, id),
    loadMany: (ids) => findBindingsToReconcile(deps.db.prisma, ids),
    name: (binding) => formatFqn(deps.namespace, binding.cluster.name, binding.stream.name),
    location: (binding) => `cluster "${binding.cluster.name}"`,
    journaled: (binding) => binding.cluster.provider !== registryOnlyProvider.kind,
    cluster: (binding) => binding.cluster,
    manager: (provider) => bindingManager(provider.infrastructure),
    createRequest,
    target: async (binding, open) => ({
      streamName: binding.stream.name,
      cluster: await open(binding.cluster),
    }),
    // A journaled request from an older generation lacks nothing today, but fall back to the
    // current maps for any it does not carry.
    async request(binding, journaled, open) {
      const shown: BindingRequest = {
        streamName: binding.stream.name,
        cluster: await open(binding.cluster),
        ...createRequest(binding),
        ...(journaled as Partial<BindingRequest> | undefined),
      };
      const secrets = await opened(binding);
      return {
        ...shown,
        configMaps: withOpened(shown.configMaps, secrets.config),
        producerConfig: withOpened(shown.producerConfig, secrets.producerConfig),
        consumerConfig: withOpened(shown.consumerConfig, secrets.consumerConfig),
      };
    },
    // One request for many topics where the provider can (Kafka: one CreateTopics, one
    // DeleteTopics); one call each otherwise.
    batchKey: (binding) => binding.cluster.id,
    removed: (tx, binding) => removeStreamIfDone(tx, binding.streamId, "reconciler"),
    findToObserve: (query) =>
      findBindingsToObserve(deps.db.prisma, {
        ...query,
        // Metadata only: its observation never changes, and registries full of it would pay for nothing.
        skipProvider: registryOnlyProvider.kind,
      }),
  });
}

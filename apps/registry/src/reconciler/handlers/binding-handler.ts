import { formatFqn } from "@stream-registry/core";
import {
  settle,
  type BindingRequest,
  type ClusterTarget,
  type StreamInfrastructureManager,
} from "@stream-registry/provider-api";
import {
  BINDING_RESOURCE,
  findBindingsToObserve,
  findBindingsToReconcile,
  findBindingToReconcile,
  removeStreamIfDone,
  type BindingToReconcile,
} from "@stream-registry/store";
import { clusterTarget } from "../../providers/cluster-target.ts";
import { openedConfigSet, withOpened } from "../../providers/opened-configs.ts";
import { registryOnlyProvider } from "../../providers/registry-only.ts";
import { configSetOf, effectiveConfigSet } from "../../services/config-input.ts";
import type { ServiceDeps } from "../../services/deps.ts";
import type { CreateRequest, ReconcileHandler } from "../handler.ts";

type BindingHandlerDeps = Pick<ServiceDeps, "db" | "providers" | "namespace" | "keyring">;

/**
 * Bindings, the kernel's first kind: a stream realized on a cluster by the cluster's provider
 * (a Kafka topic). What a create journals is the effective config maps of the binding.
 */
export function bindingHandler(deps: BindingHandlerDeps): ReconcileHandler<BindingToReconcile> {
  const infrastructure = (binding: BindingToReconcile): StreamInfrastructureManager => {
    const provider = deps.providers.get(binding.cluster.provider);
    if (!provider) {
      // Retried, never FAILED: the fix is to load the provider, not to forget what it may have made.
      throw new Error(
        `provider "${binding.cluster.provider}" is not loaded in this registry (see REGISTRY_PROVIDERS)`,
      );
    }
    return provider.infrastructure;
  };
  // The cluster's secrets are decrypted here, as it is reached; once for the bindings of a batch.
  const targets = () => {
    const opened = new Map<string, Promise<ClusterTarget>>();
    return async (binding: BindingToReconcile) => {
      const key = `${binding.cluster.id}:${binding.cluster.generation}`;
      if (!opened.has(key)) opened.set(key, clusterTarget(deps, binding.cluster));
      return { streamName: binding.stream.name, cluster: await opened.get(key)! };
    };
  };
  const target = (binding: BindingToReconcile) => targets()(binding);
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
  // A journaled request from an older generation lacks nothing today, but fall back to the
  // current maps for any it does not carry.
  const request = async (
    binding: BindingToReconcile,
    journaled?: CreateRequest,
    of: typeof target = target,
  ): Promise<BindingRequest> => {
    const shown: BindingRequest = {
      ...(await of(binding)),
      ...createRequest(binding),
      ...(journaled as Partial<BindingRequest> | undefined),
    };
    const open = await opened(binding);
    return {
      ...shown,
      configMaps: withOpened(shown.configMaps, open.config),
      producerConfig: withOpened(shown.producerConfig, open.producerConfig),
      consumerConfig: withOpened(shown.consumerConfig, open.consumerConfig),
    };
  };

  return {
    resource: BINDING_RESOURCE,
    load: (id) => findBindingToReconcile(deps.db.prisma, id),
    loadMany: (ids) => findBindingsToReconcile(deps.db.prisma, ids),
    name: (binding) => formatFqn(deps.namespace, binding.cluster.name, binding.stream.name),
    location: (binding) => `cluster "${binding.cluster.name}"`,
    journaled: (binding) => binding.cluster.provider !== registryOnlyProvider.kind,
    createRequest,
    create: async (binding, journaled, context) =>
      infrastructure(binding).createStreamBinding(await request(binding, journaled), context),
    batchKey: (binding) => binding.cluster.id,
    // One request for many topics where the provider can (Kafka: one CreateTopics); one call each
    // otherwise.
    async createMany(items, context) {
      const first = items[0];
      if (!first) return [];
      const manager = infrastructure(first.r);
      const of = targets();
      const requests = await Promise.all(items.map(({ r, request: journaled }) => request(r, journaled, of)));
      if (manager.createStreamBindings) return manager.createStreamBindings(requests, context);
      return Promise.all(requests.map((one) => settle(manager.createStreamBinding(one, context))));
    },
    // One request for many topics where the provider can (Kafka: one DeleteTopics).
    async removeMany(bindings, context) {
      const first = bindings[0];
      if (!first) return [];
      const manager = infrastructure(first);
      const of = targets();
      const all = await Promise.all(bindings.map((binding) => of(binding)));
      if (manager.deleteStreamBindings) return manager.deleteStreamBindings(all, context);
      return Promise.all(
        all.map(({ streamName, cluster }) =>
          settle(manager.deleteStreamBinding(streamName, cluster, context)),
        ),
      );
    },
    update: async (binding, context) =>
      infrastructure(binding).updateStreamBinding(await request(binding), context),
    observe: async (binding, context) => {
      const manager = infrastructure(binding);
      const { streamName, cluster } = await target(binding);
      return manager.observeStreamBinding(streamName, cluster, context);
    },
    remove: async (binding, context) => {
      const manager = infrastructure(binding);
      const { streamName, cluster } = await target(binding);
      return manager.deleteStreamBinding(streamName, cluster, context);
    },
    removed: (tx, binding) => removeStreamIfDone(tx, binding.streamId, "reconciler"),
    findToObserve: (query) =>
      findBindingsToObserve(deps.db.prisma, {
        ...query,
        // Metadata only: its observation never changes, and registries full of it would pay for nothing.
        skipProvider: registryOnlyProvider.kind,
      }),
  };
}

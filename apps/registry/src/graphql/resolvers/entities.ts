import {
  ErrorCode,
  formatFqn,
  mergeConfigMaps,
  parseFqn,
  RegistryError,
  type ConfigMaps,
} from "@stream-registry/core";
import type { Binding, Stream as StreamRow } from "@stream-registry/store";
import type {
  BindingResolvers,
  ClusterResolvers,
  NamespaceResolvers,
  ResourceStatusResolvers,
  StreamResolvers,
} from "../../generated/resolvers-types.ts";
import type { GraphQLContext } from "../context.ts";
import type { EffectiveConfigModel } from "../models.ts";
import { toConnection } from "../connection.ts";
import { primeClusters, primeStreams } from "../loaders.ts";

export const Namespace: NamespaceResolvers = {
  __resolveReference: (ref, { namespace }) => (ref.path === namespace ? { path: namespace } : null),
  clusters: async (_, { filter, first, after }, { services, loaders }) => {
    const page = await services.catalog.clusters(filter, { first, after });
    primeClusters(
      loaders,
      page.items.map((i) => i.node),
    );
    return toConnection(page);
  },
  streams: async (_, { filter, first, after }, { services, loaders }) => {
    const page = await services.catalog.streams(filter, { first, after });
    primeStreams(
      loaders,
      page.items.map((i) => i.node),
    );
    return toConnection(page);
  },
};

export const Cluster: ClusterResolvers = {
  __resolveReference: async (ref, { namespace, loaders }) =>
    ref.namespace === namespace ? ((await loaders.clusterByName.load(ref.name)) ?? null) : null,
  namespace: (_, __, { namespace }) => namespace,
  config: (cluster) => cluster.config as ConfigMaps,
  bindings: (cluster, _, { loaders }) => loaders.bindingsByClusterId.load(cluster.id),
};

export const Stream: StreamResolvers = {
  __resolveReference: async (ref, { namespace, loaders }) =>
    ref.namespace === namespace ? ((await loaders.streamByName.load(ref.name)) ?? null) : null,
  namespace: (_, __, { namespace }) => namespace,
  config: (stream) => stream.config as ConfigMaps,
  producerConfig: (stream) => stream.producerConfig as ConfigMaps,
  consumerConfig: (stream) => stream.consumerConfig as ConfigMaps,
  bindings: (stream, _, { loaders }) => loaders.bindingsByStreamId.load(stream.id),
  defaultBinding: async (stream, _, { loaders }) =>
    (await loaders.bindingsByStreamId.load(stream.id)).find((b) => b.isDefault) ?? null,
  effectiveConfig: async (stream, { cluster }, context) => {
    const bindings = await context.loaders.bindingsByStreamId.load(stream.id);
    let binding: Binding | undefined;
    if (cluster) {
      const target = await context.loaders.clusterByName.load(cluster);
      binding = bindings.find((b) => b.clusterId === target?.id);
      if (!binding) {
        throw new RegistryError(
          ErrorCode.NOT_FOUND,
          `stream "${stream.name}" has no binding on cluster "${cluster}"`,
          ["cluster"],
        );
      }
    } else {
      binding = bindings.find((b) => b.isDefault);
      if (!binding)
        throw new RegistryError(ErrorCode.NOT_FOUND, `stream "${stream.name}" has no bindings`, []);
    }
    return effectiveConfig(stream, binding, context);
  },
};

export const BindingType: BindingResolvers = {
  __resolveReference: async (ref, { namespace, loaders }) => {
    const fqn = parseFqn(ref.fqn);
    if (fqn.namespace !== namespace) return null;
    const [stream, cluster] = await Promise.all([
      loaders.streamByName.load(fqn.stream),
      loaders.clusterByName.load(fqn.cluster),
    ]);
    if (!stream || !cluster) return null;
    return (await loaders.bindingsByStreamId.load(stream.id)).find((b) => b.clusterId === cluster.id) ?? null;
  },
  fqn: async (binding, _, context) => {
    const [stream, cluster] = await Promise.all([streamOf(binding, context), clusterOf(binding, context)]);
    return formatFqn(context.namespace, cluster.name, stream.name);
  },
  stream: (binding, _, context) => streamOf(binding, context),
  cluster: (binding, _, context) => clusterOf(binding, context),
  config: (binding) => binding.config as ConfigMaps,
  producerConfig: (binding) => binding.producerConfig as ConfigMaps,
  consumerConfig: (binding) => binding.consumerConfig as ConfigMaps,
  effectiveConfig: async (binding, _, context) =>
    effectiveConfig(await streamOf(binding, context), binding, context),
  status: (binding) => binding,
};

export const ResourceStatus: ResourceStatusResolvers = {
  updatedAt: (binding) => binding.statusUpdatedAt,
};

async function effectiveConfig(
  stream: StreamRow,
  binding: Binding,
  context: GraphQLContext,
): Promise<EffectiveConfigModel> {
  const cluster = await clusterOf(binding, context);
  return {
    stream: stream.name,
    cluster: cluster.name,
    isDefault: binding.isDefault,
    config: mergeConfigMaps(stream.config as ConfigMaps, binding.config as ConfigMaps),
    producerConfig: mergeConfigMaps(
      stream.producerConfig as ConfigMaps,
      binding.producerConfig as ConfigMaps,
    ),
    consumerConfig: mergeConfigMaps(
      stream.consumerConfig as ConfigMaps,
      binding.consumerConfig as ConfigMaps,
    ),
  };
}

async function streamOf(binding: Binding, { loaders }: GraphQLContext): Promise<StreamRow> {
  const stream = await loaders.streamById.load(binding.streamId);
  if (!stream) throw new Error(`binding ${binding.id} refers to missing stream ${binding.streamId}`);
  return stream;
}

async function clusterOf(binding: Binding, { loaders }: GraphQLContext) {
  const cluster = await loaders.clusterById.load(binding.clusterId);
  if (!cluster) throw new Error(`binding ${binding.id} refers to missing cluster ${binding.clusterId}`);
  return cluster;
}

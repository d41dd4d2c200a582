import {
  ErrorCode,
  formatFqn,
  parseFqn,
  RegistryError,
  type Binding,
  type Stream as StreamModel,
} from "@stream-registry/core";
import type {
  BindingResolvers,
  ClusterResolvers,
  NamespaceResolvers,
  ResourceStatusResolvers,
  StreamResolvers,
} from "../../generated/resolvers-types.ts";
import { configSetOf, effectiveConfigSet } from "../../services/config-input.ts";
import type { GraphQLContext } from "../context.ts";
import type { EffectiveConfigModel } from "../models.ts";
import { bindingByNames, clusterConnection, streamConnection } from "./lookups.ts";

export const Namespace: NamespaceResolvers = {
  __resolveReference: (ref, { namespace }) => (ref.path === namespace ? { path: namespace } : null),
  // Only the namespace this registry owns has a parent and children here.
  parent: (ns, _, { namespace, services }) => (ns.path === namespace ? services.parent.current() : null),
  children: (ns, _, { namespace, services }) => (ns.path === namespace ? services.children.list() : []),
  clusters: (_, { filter, first, after }, context) => clusterConnection(filter, { first, after }, context),
  streams: (_, { filter, first, after }, context) => streamConnection(filter, { first, after }, context),
};

export const Cluster: ClusterResolvers = {
  __resolveReference: async (ref, { namespace, loaders }) =>
    ref.namespace === namespace ? ((await loaders.clusterByName.load(ref.name)) ?? null) : null,
  namespace: (_, __, { namespace }) => namespace,
  bindings: (cluster, _, { loaders }) => loaders.bindingsByClusterId.load(cluster.id),
  health: async (cluster, _, { loaders, services }) =>
    services.health.view(await loaders.healthByClusterId.load(cluster.id)),
};

export const Stream: StreamResolvers = {
  __resolveReference: async (ref, { namespace, loaders }) =>
    ref.namespace === namespace ? ((await loaders.streamByName.load(ref.name)) ?? null) : null,
  namespace: (_, __, { namespace }) => namespace,
  bindings: (stream, _, { loaders }) => loaders.bindingsByStreamId.load(stream.id),
  defaultBinding: async (stream, _, { loaders }) =>
    (await loaders.bindingsByStreamId.load(stream.id)).find((b) => b.isDefault) ?? null,
  effectiveConfig: async (stream, { cluster }, context) => {
    const binding = cluster
      ? await bindingByNames(stream.name, cluster, context)
      : (await context.loaders.bindingsByStreamId.load(stream.id)).find((b) => b.isDefault);
    if (!binding) {
      const where = cluster ? `no binding on cluster "${cluster}"` : "no bindings";
      throw new RegistryError(
        ErrorCode.NOT_FOUND,
        `stream "${stream.name}" has ${where}`,
        cluster ? ["cluster"] : [],
      );
    }
    return effectiveConfig(stream, binding, context);
  },
};

export const BindingType: BindingResolvers = {
  __resolveReference: (ref, context) => {
    const fqn = parseFqn(ref.fqn);
    return fqn.namespace === context.namespace ? bindingByNames(fqn.stream, fqn.cluster, context) : null;
  },
  fqn: async (binding, _, context) => {
    const [stream, cluster] = await Promise.all([streamOf(binding, context), clusterOf(binding, context)]);
    return formatFqn(context.namespace, cluster.name, stream.name);
  },
  stream: (binding, _, context) => streamOf(binding, context),
  cluster: (binding, _, context) => clusterOf(binding, context),
  effectiveConfig: async (binding, _, context) =>
    effectiveConfig(await streamOf(binding, context), binding, context),
  status: (binding) => binding,
  observed: async (binding, _, { loaders }) =>
    (await loaders.observationByBindingId.load(binding.id)) ?? null,
};

export const ResourceStatus: ResourceStatusResolvers = {
  updatedAt: (binding) => binding.statusUpdatedAt,
};

async function effectiveConfig(
  stream: StreamModel,
  binding: Binding,
  context: GraphQLContext,
): Promise<EffectiveConfigModel> {
  const cluster = await clusterOf(binding, context);
  return {
    stream: stream.name,
    cluster: cluster.name,
    isDefault: binding.isDefault,
    ...effectiveConfigSet(configSetOf(stream), configSetOf(binding)),
  };
}

async function streamOf(binding: Binding, { loaders }: GraphQLContext): Promise<StreamModel> {
  const stream = await loaders.streamById.load(binding.streamId);
  if (!stream) throw new Error(`binding ${binding.id} refers to missing stream ${binding.streamId}`);
  return stream;
}

async function clusterOf(binding: Binding, { loaders }: GraphQLContext) {
  const cluster = await loaders.clusterById.load(binding.clusterId);
  if (!cluster) throw new Error(`binding ${binding.id} refers to missing cluster ${binding.clusterId}`);
  return cluster;
}

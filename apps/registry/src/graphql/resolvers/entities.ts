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
import { accessOf } from "../authorize.ts";
import type { EffectiveConfigModel } from "../models.ts";
import { bindingByNames, clusterConnection, readableBindings, streamConnection } from "./lookups.ts";
import { streamSchemaFields } from "./schemas.ts";
import { descendantsOf } from "../descendants.ts";
import { bindingFlowModel } from "../../flow/binding-flow.ts";

export const Namespace: NamespaceResolvers = {
  __resolveReference: (ref, { namespace }) => (ref.path === namespace ? { path: namespace } : null),
  // Only the namespace this registry owns has a parent and children here; a reader of it sees its
  // parent, and the children whose subtrees it reads anything of.
  parent: async (ns, _, context) =>
    ns.path === context.namespace && (await accessOf(context)).can("reader", "")
      ? context.services.parent.current()
      : null,
  children: async (ns, _, context) => {
    if (ns.path !== context.namespace) return [];
    const access = await accessOf(context);
    return (await context.services.children.list()).filter((child) => access.knowsOf(child.name));
  },
  descendants: (ns, _, context) => (ns.path === context.namespace ? descendantsOf(context) : []),
  clusters: (_, { filter, first, after }, context) => clusterConnection(filter, { first, after }, context),
  streams: (_, { filter, first, after }, context) => streamConnection(filter, { first, after }, context),
};

// A look-up by key of what the principal may not read answers as if it did not exist.
export const Cluster: ClusterResolvers = {
  __resolveReference: async (ref, context) =>
    ref.namespace === context.namespace && (await accessOf(context)).readsDocument("")
      ? ((await context.loaders.clusterByName.load(ref.name)) ?? null)
      : null,
  namespace: (_, __, { namespace }) => namespace,
  // A cluster reached through a binding of a stream prefix shows no other stream's bindings.
  bindings: async (cluster, _, context) =>
    readableBindings(context, await context.loaders.bindingsByClusterId.load(cluster.id)),
  health: async (cluster, _, { loaders, services }) =>
    services.health.view(await loaders.healthByClusterId.load(cluster.id)),
};

export const Stream: StreamResolvers = {
  ...streamSchemaFields,
  __resolveReference: async (ref, context) =>
    ref.namespace === context.namespace && (await accessOf(context)).readsDocument("", ref.name)
      ? ((await context.loaders.streamByName.load(ref.name)) ?? null)
      : null,
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
  __resolveReference: async (ref, context) => {
    const fqn = parseFqn(ref.fqn);
    return fqn.namespace === context.namespace && (await accessOf(context)).readsDocument("", fqn.stream)
      ? bindingByNames(fqn.stream, fqn.cluster, context)
      : null;
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
  // The background poller's last reading (flow/flow-poller.ts), never the platform's, per request.
  flow: (binding, _, { services }) => {
    const view = services.flow.of(binding.id);
    return view && bindingFlowModel(view);
  },
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

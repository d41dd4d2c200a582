import type { Stream } from "@stream-registry/core";
import type { ClusterTarget, SchemaManager } from "@stream-registry/provider-api";
import { findLiveBindingsOfStream } from "@stream-registry/store";
import { clusterTarget } from "../providers/cluster-target.ts";
import type { ServiceDeps } from "../services/deps.ts";

/** A schema registry to call, and the cluster its calls are about. */
export interface ChosenSchemaManager {
  manager: SchemaManager;
  cluster: ClusterTarget;
  /** True when it is this registry's own (built-in) schema registry. */
  builtIn: boolean;
}

/**
 * Where a stream's schemas go (issue 12): its default binding's cluster's provider's schema
 * manager, when the provider has one and says it serves that cluster (a cluster whose config
 * names an external schema registry); otherwise, and for a stream without bindings, the
 * registry's built-in one.
 */
export async function schemaManagerFor(
  deps: ServiceDeps,
  builtIn: SchemaManager,
  stream: Stream | undefined,
): Promise<ChosenSchemaManager> {
  const own: ChosenSchemaManager = {
    manager: builtIn,
    cluster: { namespace: deps.namespace, name: "", config: {} },
    builtIn: true,
  };
  if (!stream) return own;
  const bindings = await findLiveBindingsOfStream(deps.db.prisma, stream.id);
  const binding = bindings.find((b) => b.isDefault) ?? bindings[0];
  if (!binding) return own;
  const provider = deps.providers.get(binding.cluster.provider);
  if (!provider?.schemas) return own;
  return pickSchemaManager(provider.schemas, await clusterTarget(deps, binding.cluster), own);
}

/** The provider's manager when it serves `cluster` (`servesCluster` absent: it serves every one), else `own`. */
export function pickSchemaManager(
  manager: SchemaManager,
  cluster: ClusterTarget,
  own: ChosenSchemaManager,
): ChosenSchemaManager {
  return manager.servesCluster?.(cluster) !== false ? { manager, cluster, builtIn: false } : own;
}

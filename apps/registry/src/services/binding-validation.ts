import { UnreadableSecrets, type Cluster } from "@stream-registry/core";
import { clusterTarget, type ClusterSecrets } from "../providers/cluster-target.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { ConfigSet } from "./config-input.ts";
import { throwIfAny } from "./user-errors.ts";

/**
 * Asks the cluster's provider whether it can realize a binding with these effective maps: every
 * map it requires must be there, then its own validation. Used when a binding is created or
 * changed, and when its stream's maps change.
 */
export async function checkBindingConfig(
  deps: ClusterSecrets & { providers: ProviderRegistry },
  streamName: string,
  effective: ConfigSet,
  cluster: Cluster,
): Promise<void> {
  const { providers } = deps;
  const provider = providers.require(cluster.provider, ["input", "cluster"]);
  throwIfAny([
    ...providers.checkRequiredMaps(provider, effective.config, "stream", ["input", "config"]),
    ...providers.checkRequiredMaps(provider, effective.producerConfig, "producer", [
      "input",
      "producerConfig",
    ]),
    ...providers.checkRequiredMaps(provider, effective.consumerConfig, "consumer", [
      "input",
      "consumerConfig",
    ]),
  ]);
  const target = await clusterTarget(deps, cluster).catch((error: unknown) => {
    // As when the cluster is down: the desired state is accepted, and realizing it reports why.
    if (error instanceof UnreadableSecrets) return undefined;
    throw error;
  });
  if (!target) return;
  await providers.validateStream(provider, streamName, effective.config, target, ["input", "config"]);
}

import type { Cluster } from "@stream-registry/core";
import { clusterTarget } from "../providers/cluster-target.ts";
import type { ProviderRegistry } from "../providers/provider-registry.ts";
import type { ConfigSet } from "./config-input.ts";
import { throwIfAny } from "./user-errors.ts";

/**
 * Asks the cluster's provider whether it can realize a binding with these effective maps: every
 * map it requires must be there, then its own validation. Used when a binding is created or
 * changed, and when its stream's maps change.
 */
export async function checkBindingConfig(
  providers: ProviderRegistry,
  namespace: string,
  streamName: string,
  effective: ConfigSet,
  cluster: Cluster,
): Promise<void> {
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
  await providers.validateStream(provider, streamName, effective.config, clusterTarget(namespace, cluster), [
    "input",
    "config",
  ]);
}

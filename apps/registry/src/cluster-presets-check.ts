import { checkConfigMaps, checkName, type UserError } from "@stream-registry/core";
import { formatKey, type ClusterPresets } from "./cluster-presets.ts";
import type { ProviderRegistry } from "./providers/provider-registry.ts";
import { registryOnlyProvider } from "./providers/registry-only.ts";

/**
 * Checks the presets against the rules a DECLARE CLUSTER would apply, once the providers are
 * loaded: a known provider kind, well-formed config maps, and the maps that provider requires and
 * the owning providers accept. A bad preset stops the start-up instead of failing the first
 * DECLARE that uses it. Connectivity is not checked: the cluster may come up after the registry.
 */
export function checkClusterPresets(presets: ClusterPresets, providers: ProviderRegistry): void {
  const problems: string[] = [];
  for (const [name, preset] of presets.clusters) {
    const report = (errors: UserError[]) =>
      problems.push(...errors.map((e) => `  ${formatKey([name, ...e.field])}: ${e.message}`));
    const nameError = checkName(name, [], "cluster name");
    if (nameError) report([nameError]);
    const kind = preset.provider ?? registryOnlyProvider.kind;
    const provider = providers.get(kind);
    if (!provider) {
      problems.push(
        `  ${formatKey([name, "provider"])}: unknown provider kind "${kind}"; loaded providers: ${providers.kinds().join(", ")}`,
      );
    }
    const config = preset.config ?? {};
    const shapeErrors = checkConfigMaps(config, ["config"]);
    report(shapeErrors);
    if (shapeErrors.length > 0) continue;
    report(providers.checkOwnedMaps(config, "cluster", ["config"]));
    if (provider) report(providers.checkRequiredMaps(provider, config, "cluster", ["config"]));
  }
  if (problems.length > 0) {
    throw new Error(`REGISTRY_CLUSTERS_FILE ${presets.file} is invalid:\n${problems.join("\n")}`);
  }
}

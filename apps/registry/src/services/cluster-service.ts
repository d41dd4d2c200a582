import {
  configMapsEqual,
  ErrorCode,
  fqnPrefix as namespacePrefix,
  quote,
  RegistryError,
  userError,
  type Cluster,
  type ConfigMaps,
  type UserError,
} from "@stream-registry/core";
import type { ClusterEndpoint, StreamProvider } from "@stream-registry/provider-api";
import {
  createCluster,
  deleteCluster,
  findClusterWithBindingCount,
  findClusterWithSomeStreams,
  isUniqueViolation,
  lockClusterByName,
  recordClusterHealth,
  updateCluster,
  writeTransaction,
} from "@stream-registry/store";
import { NO_CLUSTER_PRESETS, type ClusterPresets } from "../cluster-presets.ts";
import { registryOnlyProvider } from "../providers/registry-only.ts";
import { checkClusterInput, type DeclareClusterInput } from "./cluster-input.ts";
import { ConnectGuard } from "./connect-guard.ts";
import type { Actor, Caller, ServiceDeps } from "./deps.ts";
import { retryOnStale, StaleRead } from "./optimistic.ts";
import { throwIfAny } from "./user-errors.ts";

export class ClusterService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly presets: ClusterPresets = NO_CLUSTER_PRESETS,
    /** Where a caller may make the registry connect (REGISTRY_CONNECT_ALLOW). */
    private readonly connect: ConnectGuard = ConnectGuard.UNRESTRICTED,
  ) {}

  /**
   * DECLARE CLUSTER: creates the cluster, or brings an existing one to the given provider and
   * config; what the input leaves out stays as it is (see checkClusterInput). A changed provider
   * is refused (IN_USE) while the cluster has bindings. A changed config re-realizes the cluster's bindings (how to reach it may have changed).
   * A config giving a secret in clear is a change even if equal to the stored one, so that the
   * answer never confirms a guess; "********" where a query showed it keeps the stored secret.
   */
  async declare(input: DeclareClusterInput, caller: Caller): Promise<{ cluster: Cluster; created: boolean }> {
    // A registry connects somewhere new only for an admin; nothing is read before this.
    caller.access.require("admin", "", `declaring cluster ${quote(input.name)}`);
    return retryOnStale(() =>
      this.declareOnce(input, caller).catch((error: unknown) => {
        // Declared by another writer meanwhile: read it again, as an update.
        throw isUniqueViolation(error) ? new StaleRead() : error;
      }),
    );
  }

  private async declareOnce(
    input: DeclareClusterInput,
    { actor }: Actor,
  ): Promise<{ cluster: Cluster; created: boolean }> {
    const { kind, provider, config, clear, before, givesSecrets } = await checkClusterInput(
      this.deps,
      input,
      this.presets,
    );
    // Before the provider validates (which connects): nothing is asked of a refused address.
    throwIfAny(await this.connectRefusals(input.name, kind, provider, clear));
    const probe = await this.deps.providers.validateCluster(provider, input.name, clear, ["input", "config"]);

    // Secrets given in clear are sealed as they are stored (keyring: the keys they are sealed with).
    const by = { actor, secrets: this.deps.providers.isSecret, keyring: this.deps.keyring };
    const result = await writeTransaction(this.deps.db.prisma, async (tx) => {
      // No binding is created on it meanwhile (that takes a share lock on the cluster).
      await lockClusterByName(tx, input.name, "write");
      const existing = await findClusterWithBindingCount(tx, input.name);
      if (existing?.cluster.id !== before?.id || existing?.cluster.generation !== before?.generation) {
        throw new StaleRead();
      }
      if (!existing) {
        return {
          cluster: await createCluster(tx, input.name, { provider: kind, config }, by),
          created: true,
        };
      }
      const { cluster: current, bindings } = existing;
      const same = current.provider === kind && configMapsEqual(current.config, config);
      if (same && !givesSecrets) return { cluster: current, created: false };
      if (current.provider !== kind && bindings > 0) {
        throw new RegistryError(
          ErrorCode.IN_USE,
          `cluster "${input.name}" has ${bindings} binding(s); its provider cannot change from "${current.provider}" to "${kind}"`,
          ["input", "provider"],
        );
      }
      const fqnPrefix = namespacePrefix(this.deps.namespace);
      const cluster = await updateCluster(tx, current.id, { provider: kind, config }, { ...by, fqnPrefix });
      return { cluster, created: false };
    });
    this.deps.wakeReconciler();
    // The provider just reached the cluster: that is its health until the next periodic probe.
    // Best effort: the mutation succeeded, and the health loop records the next probe anyway.
    if (probe) {
      await recordClusterHealth(this.deps.db.prisma, result.cluster.id, { ok: true, probe }).catch(() => {});
    }
    return result;
  }

  /**
   * The endpoints of the cluster's config that REGISTRY_CONNECT_ALLOW does not allow. Those the
   * cluster's preset (REGISTRY_CLUSTERS_FILE, for the same provider) names are the operator's own
   * and not checked. A provider that does not say where it connects (no clusterEndpoints) is
   * refused while a list is set.
   */
  private async connectRefusals(
    name: string,
    kind: string,
    provider: StreamProvider,
    config: ConfigMaps,
  ): Promise<UserError[]> {
    if (!this.connect.restricted) return [];
    const infrastructure = provider.infrastructure;
    if (!infrastructure.clusterEndpoints) {
      return [
        userError(
          ErrorCode.INVALID_INPUT,
          ["input", "provider"],
          `provider ${quote(kind)} does not say where its clusters connect (clusterEndpoints), so none of its ` +
            `clusters can be declared while REGISTRY_CONNECT_ALLOW is set`,
        ),
      ];
    }
    const key = (endpoint: ClusterEndpoint) => `${endpoint.host.toLowerCase()}:${endpoint.port}`;
    const preset = this.presets.clusters.get(name);
    const presetKind = preset && (preset.provider ?? registryOnlyProvider.kind);
    const operators = new Set(
      preset && presetKind === kind ? infrastructure.clusterEndpoints(preset.config ?? {}).map(key) : [],
    );
    const targets = infrastructure
      .clusterEndpoints(config)
      .filter((endpoint) => !operators.has(key(endpoint)))
      .map((endpoint) => ({
        host: endpoint.host,
        port: endpoint.port,
        field: ["input", "config", ...endpoint.field],
        label: endpoint.label ?? "endpoint",
      }));
    return this.connect.refusals(targets);
  }

  async delete(name: string, { actor, access }: Caller): Promise<Cluster> {
    access.require("admin", "", `deleting cluster ${quote(name)}`);
    return writeTransaction(this.deps.db.prisma, async (tx) => {
      await lockClusterByName(tx, name, "delete"); // no binding is created on it meanwhile
      const found = await findClusterWithSomeStreams(tx, name, 5);
      if (!found)
        throw new RegistryError(ErrorCode.NOT_FOUND, `cluster "${name}" does not exist`, ["input", "name"]);
      if (found.streams.length > 0) {
        const streams = found.streams.map((stream) => `"${stream}"`).join(", ");
        throw new RegistryError(
          ErrorCode.IN_USE,
          `cluster "${name}" still has bindings (streams ${streams}); delete them first`,
          ["input", "name"],
        );
      }
      await deleteCluster(tx, found.cluster, actor);
      return found.cluster;
    });
  }
}

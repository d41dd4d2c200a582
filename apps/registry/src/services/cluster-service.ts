import { configMapsEqual, ErrorCode, fqnPrefix, RegistryError, type ConfigMaps } from "@stream-registry/core";
import { recordChange, touchBindings, writeTransaction, type Cluster } from "@stream-registry/store";
import { NO_CLUSTER_PRESETS, type ClusterPresets } from "../cluster-presets.ts";
import { recordProbe } from "../health/cluster-health.ts";
import { checkClusterInput, type DeclareClusterInput } from "./cluster-input.ts";
import type { Actor, ServiceDeps } from "./deps.ts";
import { retryOnStale, StaleRead } from "./optimistic.ts";
import { clusterData } from "./change-data.ts";

export class ClusterService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly presets: ClusterPresets = NO_CLUSTER_PRESETS,
  ) {}

  /**
   * DECLARE CLUSTER: creates the cluster, or brings an existing one to the given provider and
   * config; what the input leaves out stays as it is (see checkClusterInput). A changed provider
   * is refused (IN_USE) while the cluster has bindings. A changed config re-realizes the cluster's bindings (how to reach it may have changed).
   * A config giving a secret in clear is a change even if equal to the stored one, so that the
   * answer never confirms a guess; "********" where a query showed it keeps the stored secret.
   */
  declare(input: DeclareClusterInput, actor: Actor): Promise<{ cluster: Cluster; created: boolean }> {
    return retryOnStale(() => this.declareOnce(input, actor));
  }

  private async declareOnce(
    input: DeclareClusterInput,
    { actor }: Actor,
  ): Promise<{ cluster: Cluster; created: boolean }> {
    const { kind, provider, config, before, givesSecrets } = await checkClusterInput(
      this.deps,
      input,
      this.presets,
    );
    const probe = await this.deps.providers.validateCluster(provider, input.name, config, [
      "input",
      "config",
    ]);

    const result = await writeTransaction(this.deps.db.prisma, async (tx) => {
      const existing = await tx.cluster.findUnique({
        where: { name: input.name },
        include: { _count: { select: { bindings: true } } },
      });
      if (existing?.id !== before?.id || existing?.generation !== before?.generation) throw new StaleRead();
      if (!existing) {
        const cluster = await tx.cluster.create({ data: { name: input.name, provider: kind, config } });
        await recordChange(tx, {
          entityType: "cluster",
          entityKey: cluster.name,
          action: "created",
          generation: 1,
          actor,
          data: clusterData(cluster, this.deps.providers.isSecret),
        });
        return { cluster, created: true };
      }
      const same = existing.provider === kind && configMapsEqual(existing.config as ConfigMaps, config);
      if (same && !givesSecrets) {
        const { _count, ...cluster } = existing;
        return { cluster, created: false };
      }
      if (existing.provider !== kind && existing._count.bindings > 0) {
        throw new RegistryError(
          ErrorCode.IN_USE,
          `cluster "${input.name}" has ${existing._count.bindings} binding(s); its provider cannot change from "${existing.provider}" to "${kind}"`,
          ["input", "provider"],
        );
      }
      const cluster = await tx.cluster.update({
        where: { id: existing.id },
        data: { provider: kind, config, generation: { increment: 1 } },
      });
      await recordChange(tx, {
        entityType: "cluster",
        entityKey: cluster.name,
        action: "updated",
        generation: cluster.generation,
        actor,
        data: clusterData(cluster, this.deps.providers.isSecret),
      });
      await touchBindings(tx, { clusterId: cluster.id }, fqnPrefix(this.deps.namespace), actor);
      return { cluster, created: false };
    });
    this.deps.wakeReconciler();
    // The provider just reached the cluster: that is its health until the next periodic probe.
    // Best effort: the mutation succeeded, and the health loop records the next probe anyway.
    if (probe) await recordProbe(this.deps.db.prisma, result.cluster.id, { ok: true, probe }).catch(() => {});
    return result;
  }

  async delete(name: string, { actor }: Actor): Promise<Cluster> {
    return writeTransaction(this.deps.db.prisma, async (tx) => {
      const cluster = await tx.cluster.findUnique({
        where: { name },
        include: { bindings: { select: { stream: { select: { name: true } } }, take: 5 } },
      });
      if (!cluster)
        throw new RegistryError(ErrorCode.NOT_FOUND, `cluster "${name}" does not exist`, ["input", "name"]);
      const { bindings, ...row } = cluster;
      if (bindings.length > 0) {
        const streams = bindings.map((b) => `"${b.stream.name}"`).join(", ");
        throw new RegistryError(
          ErrorCode.IN_USE,
          `cluster "${name}" still has bindings (streams ${streams}); delete them first`,
          ["input", "name"],
        );
      }
      await tx.cluster.delete({ where: { id: cluster.id } });
      await recordChange(tx, {
        entityType: "cluster",
        entityKey: name,
        action: "deleted",
        generation: cluster.generation,
        actor,
      });
      return row;
    });
  }
}

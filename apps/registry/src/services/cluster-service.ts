import {
  checkConfigMaps,
  checkName,
  ErrorCode,
  RegistryError,
  type ConfigMaps,
  type UserError,
} from "@stream-registry/core";
import { isUniqueViolation, recordChange, type Cluster } from "@stream-registry/store";
import { registryOnlyProvider } from "../providers/registry-only.ts";
import type { Actor, ServiceDeps } from "./deps.ts";
import { throwIfAny } from "./user-errors.ts";

export interface DeclareClusterInput {
  name: string;
  provider?: string | null;
  config?: unknown;
}

export class ClusterService {
  constructor(private readonly deps: ServiceDeps) {}

  /** DECLARE CLUSTER: creates the cluster, or brings an existing one to the given provider and config. */
  async declare(
    input: DeclareClusterInput,
    { actor }: Actor,
  ): Promise<{ cluster: Cluster; created: boolean }> {
    const errors: UserError[] = [];
    pushIf(errors, checkName(input.name, ["input", "name"], "cluster name"));
    const kind = input.provider ?? registryOnlyProvider.kind;
    const provider = this.deps.providers.require(kind, ["input", "provider"]);
    const config = (input.config ?? {}) as ConfigMaps;
    const shapeErrors = checkConfigMaps(config, ["input", "config"]);
    errors.push(...shapeErrors);
    if (shapeErrors.length === 0) {
      errors.push(...this.deps.providers.checkOwnedMaps(config, "cluster", ["input", "config"], provider));
    }
    throwIfAny(errors);
    await this.deps.providers.validateCluster(provider, input.name, config, ["input", "config"]);

    const write = () =>
      this.deps.db.prisma.$transaction(async (tx) => {
        const existing = await tx.cluster.findUnique({
          where: { name: input.name },
          include: { _count: { select: { bindings: true } } },
        });
        if (!existing) {
          const cluster = await tx.cluster.create({ data: { name: input.name, provider: kind, config } });
          await recordChange(tx, {
            entityType: "cluster",
            entityKey: cluster.name,
            action: "created",
            generation: 1,
            actor,
          });
          return { cluster, created: true };
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
        });
        return { cluster, created: false };
      });
    try {
      return await write();
    } catch (error) {
      // Two concurrent declares of a new name: the loser updates what the winner created.
      if (isUniqueViolation(error)) return write();
      throw error;
    }
  }

  async delete(name: string, { actor }: Actor): Promise<Cluster> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      const cluster = await tx.cluster.findUnique({
        where: { name },
        include: { bindings: { select: { stream: { select: { name: true } } }, take: 5 } },
      });
      if (!cluster) throw notFound(name);
      if (cluster.bindings.length > 0) {
        const streams = cluster.bindings.map((b) => `"${b.stream.name}"`).join(", ");
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
      const { bindings: _bindings, ...row } = cluster;
      return row;
    });
  }
}

function notFound(name: string): RegistryError {
  return new RegistryError(ErrorCode.NOT_FOUND, `cluster "${name}" does not exist`, ["input", "name"]);
}

export function pushIf(errors: UserError[], error: UserError | undefined): void {
  if (error) errors.push(error);
}

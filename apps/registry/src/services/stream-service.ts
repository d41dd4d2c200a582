import {
  checkName,
  configMapsEqual,
  ErrorCode,
  formatFqn,
  RegistryError,
  type UserError,
} from "@stream-registry/core";
import { isUniqueViolation, recordChange, writeTransaction, type Stream } from "@stream-registry/store";
import { clusterTarget } from "../providers/cluster-target.ts";
import { changeBinding, touchBindings } from "./binding-writes.ts";
import {
  checkConfigInput,
  configSetOf,
  effectiveConfigSet,
  EMPTY_CONFIG_SET,
  type ConfigInput,
  type ConfigSet,
} from "./config-input.ts";
import type { Actor, ServiceDeps } from "./deps.ts";
import { retryOnStale, StaleRead } from "./optimistic.ts";
import { pushIf, throwIfAny } from "./user-errors.ts";

export interface StreamInput extends ConfigInput {
  name: string;
}

export class StreamService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(input: StreamInput, { actor }: Actor): Promise<Stream> {
    const errors: UserError[] = [];
    pushIf(errors, checkName(input.name, ["input", "name"], "stream name"));
    const configs = checkConfigInput(input, EMPTY_CONFIG_SET, this.deps.providers, errors);
    throwIfAny(errors);
    try {
      return await writeTransaction(this.deps.db.prisma, async (tx) => {
        const stream = await tx.stream.create({ data: { name: input.name, ...configs } });
        await recordChange(tx, {
          entityType: "stream",
          entityKey: stream.name,
          action: "created",
          generation: 1,
          actor,
        });
        return stream;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new RegistryError(ErrorCode.ALREADY_EXISTS, `stream "${input.name}" already exists`, [
          "input",
          "name",
        ]);
      }
      throw error;
    }
  }

  /**
   * Replaces the given sets of config maps. Every binding of the stream gets a new generation and
   * is reconciled, since what it realizes derives from the stream's maps. A no-op update changes
   * nothing (no generation bump), so re-applying a declaration is cheap.
   */
  update(input: StreamInput, { actor }: Actor): Promise<Stream> {
    return retryOnStale(async () => {
      const current = await this.findLive(input.name);
      const errors: UserError[] = [];
      const configs = checkConfigInput(input, configSetOf(current), this.deps.providers, errors);
      throwIfAny(errors);
      if (sameConfigs(configs, configSetOf(current))) return current;
      await this.validateOnClusters(current, configs);

      const stream = await writeTransaction(this.deps.db.prisma, async (tx) => {
        const written = await tx.stream.updateMany({
          where: { id: current.id, generation: current.generation, deleting: false },
          data: { ...configs, generation: { increment: 1 } },
        });
        if (written.count === 0) throw new StaleRead();
        const updated = await tx.stream.findUniqueOrThrow({ where: { id: current.id } });
        await recordChange(tx, {
          entityType: "stream",
          entityKey: updated.name,
          action: "updated",
          generation: updated.generation,
          actor,
        });
        await touchBindings(tx, this.deps.namespace, { streamId: updated.id }, actor);
        return updated;
      });
      this.deps.wakeReconciler();
      return stream;
    });
  }

  /**
   * Deletes a stream without bindings at once. With `cascade`, marks it deleting and asks for
   * every binding to be deleted; the reconciler removes the stream with its last binding.
   */
  async delete(
    name: string,
    cascade: boolean,
    { actor }: Actor,
  ): Promise<{ stream: Stream; deleted: boolean }> {
    const result = await writeTransaction(this.deps.db.prisma, async (tx) => {
      const found = await tx.stream.findUnique({
        where: { name },
        include: { bindings: { include: { cluster: true } } },
      });
      if (!found) throw notFound(name);
      const { bindings, ...stream } = found;
      if (bindings.length === 0) {
        await tx.stream.delete({ where: { id: stream.id } });
        await recordChange(tx, {
          entityType: "stream",
          entityKey: name,
          action: "deleted",
          generation: stream.generation,
          actor,
        });
        return { stream, deleted: true };
      }
      if (!cascade) {
        const clusters = bindings.map((b) => `"${b.cluster.name}"`).join(", ");
        throw new RegistryError(
          ErrorCode.IN_USE,
          `stream "${name}" is bound to cluster(s) ${clusters}; delete the bindings first or set cascade: true`,
          ["input", "name"],
        );
      }
      if (!stream.deleting) {
        await tx.stream.update({ where: { id: stream.id }, data: { deleting: true } });
        await recordChange(tx, {
          entityType: "stream",
          entityKey: name,
          action: "delete-requested",
          generation: stream.generation,
          actor,
        });
      }
      for (const { cluster, ...binding } of bindings) {
        await changeBinding(
          tx,
          binding,
          "delete-requested",
          {},
          actor,
          formatFqn(this.deps.namespace, cluster.name, name),
        );
      }
      return { stream: { ...stream, deleting: true }, deleted: false };
    });
    if (!result.deleted) this.deps.wakeReconciler();
    return result;
  }

  /** Asks each bound cluster's provider whether it can realize the new maps. */
  private async validateOnClusters(stream: Stream, configs: ConfigSet): Promise<void> {
    const bindings = await this.deps.db.prisma.binding.findMany({
      where: { streamId: stream.id, phase: { not: "DELETING" } },
      include: { cluster: true },
    });
    for (const binding of bindings) {
      const provider = this.deps.providers.get(binding.cluster.provider);
      if (!provider) continue; // reported by the reconciler on the binding's status
      const effective = effectiveConfigSet(configs, configSetOf(binding)).config;
      await this.deps.providers.validateStream(
        provider,
        stream.name,
        effective,
        clusterTarget(this.deps.namespace, binding.cluster),
        ["input", "config"],
      );
    }
  }

  private async findLive(name: string): Promise<Stream> {
    const stream = await this.deps.db.prisma.stream.findUnique({ where: { name } });
    if (!stream) throw notFound(name);
    if (stream.deleting) {
      throw new RegistryError(ErrorCode.BEING_DELETED, `stream "${name}" is being deleted`, [
        "input",
        "name",
      ]);
    }
    return stream;
  }
}

function sameConfigs(a: ConfigSet, b: ConfigSet): boolean {
  return (
    configMapsEqual(a.config, b.config) &&
    configMapsEqual(a.producerConfig, b.producerConfig) &&
    configMapsEqual(a.consumerConfig, b.consumerConfig)
  );
}

function notFound(name: string): RegistryError {
  return new RegistryError(ErrorCode.NOT_FOUND, `stream "${name}" does not exist`, ["input", "name"]);
}

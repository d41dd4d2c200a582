import {
  checkName,
  configMapsEqual,
  ErrorCode,
  formatFqn,
  mergeConfigMaps,
  RegistryError,
  type UserError,
} from "@stream-registry/core";
import { enqueueJob, isUniqueViolation, recordChange, type Stream, type Tx } from "@stream-registry/store";
import {
  checkConfigInput,
  configSetOf,
  EMPTY_CONFIG_SET,
  type ConfigInput,
  type ConfigSet,
} from "./config-input.ts";
import { pushIf } from "./cluster-service.ts";
import { BINDING_JOB, type Actor, type ServiceDeps } from "./deps.ts";
import { throwIfAny } from "./user-errors.ts";

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
      return await this.deps.db.prisma.$transaction(async (tx) => {
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
  async update(input: StreamInput, { actor }: Actor): Promise<Stream> {
    const current = await this.find(input.name);
    const errors: UserError[] = [];
    const configs = checkConfigInput(input, configSetOf(current), this.deps.providers, errors);
    throwIfAny(errors);
    if (sameConfigs(configs, configSetOf(current))) return current;

    const bindings = await this.deps.db.prisma.binding.findMany({
      where: { streamId: current.id, phase: { not: "DELETING" } },
      include: { cluster: true },
    });
    for (const binding of bindings) {
      const provider = this.deps.providers.get(binding.cluster.provider);
      if (!provider) continue; // reported by the reconciler on the binding's status
      const effective = mergeConfigMaps(configs.config, configSetOf(binding).config);
      await this.deps.providers.validateStream(
        provider,
        current.name,
        effective,
        {
          namespace: this.deps.namespace,
          name: binding.cluster.name,
          config: binding.cluster.config as never,
        },
        ["input", "config"],
      );
    }

    const stream = await this.deps.db.prisma.$transaction(async (tx) => {
      const updated = await tx.stream.update({
        where: { id: current.id, deleting: false },
        data: { ...configs, generation: { increment: 1 } },
      });
      await recordChange(tx, {
        entityType: "stream",
        entityKey: updated.name,
        action: "updated",
        generation: updated.generation,
        actor,
      });
      await touchBindings(tx, this.deps.namespace, updated, actor);
      return updated;
    });
    this.deps.wakeReconciler();
    return stream;
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
    const result = await this.deps.db.prisma.$transaction(async (tx) => {
      const stream = await tx.stream.findUnique({
        where: { name },
        include: { bindings: { include: { cluster: true } } },
      });
      if (!stream) throw notFound(name);
      const { bindings, ...row } = stream;
      if (bindings.length === 0) {
        await tx.stream.delete({ where: { id: stream.id } });
        await recordChange(tx, {
          entityType: "stream",
          entityKey: name,
          action: "deleted",
          generation: stream.generation,
          actor,
        });
        return { stream: row, deleted: true };
      }
      if (!cascade) {
        const clusters = bindings.map((b) => `"${b.cluster.name}"`).join(", ");
        throw new RegistryError(
          ErrorCode.IN_USE,
          `stream "${name}" is bound to cluster(s) ${clusters}; delete the bindings first or set cascade: true`,
          ["input", "name"],
        );
      }
      const marked = await tx.stream.update({ where: { id: stream.id }, data: { deleting: true } });
      if (!stream.deleting) {
        await recordChange(tx, {
          entityType: "stream",
          entityKey: name,
          action: "delete-requested",
          generation: stream.generation,
          actor,
        });
      }
      for (const binding of bindings.filter((b) => b.phase !== "DELETING")) {
        const updated = await tx.binding.update({
          where: { id: binding.id },
          data: {
            phase: "DELETING",
            generation: { increment: 1 },
            statusUpdatedAt: new Date(),
            message: null,
          },
        });
        await enqueueJob(tx, BINDING_JOB, binding.id);
        await recordChange(tx, {
          entityType: "binding",
          entityKey: formatFqn(this.deps.namespace, binding.cluster.name, name),
          action: "delete-requested",
          generation: updated.generation,
          actor,
        });
      }
      return { stream: marked, deleted: false };
    });
    if (!result.deleted) this.deps.wakeReconciler();
    return result;
  }

  private async find(name: string): Promise<Stream> {
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

/** Re-realizes every live binding of `stream` after its desired state changed. */
async function touchBindings(tx: Tx, namespace: string, stream: Stream, actor: string): Promise<void> {
  const bindings = await tx.binding.findMany({
    where: { streamId: stream.id, phase: { not: "DELETING" } },
    include: { cluster: { select: { name: true } } },
  });
  for (const binding of bindings) {
    const updated = await tx.binding.update({
      where: { id: binding.id },
      data: { generation: { increment: 1 }, phase: "PENDING", statusUpdatedAt: new Date() },
    });
    await enqueueJob(tx, BINDING_JOB, binding.id);
    await recordChange(tx, {
      entityType: "binding",
      entityKey: formatFqn(namespace, binding.cluster.name, stream.name),
      action: "updated",
      generation: updated.generation,
      actor,
    });
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

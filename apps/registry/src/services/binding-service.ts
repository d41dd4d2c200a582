import {
  ErrorCode,
  formatFqn,
  mergeConfigMaps,
  RegistryError,
  type ConfigMaps,
  type UserError,
} from "@stream-registry/core";
import { enqueueJob, recordChange, type Binding, type Cluster, type Stream } from "@stream-registry/store";
import {
  checkConfigInput,
  configSetOf,
  EMPTY_CONFIG_SET,
  type ConfigInput,
  type ConfigSet,
} from "./config-input.ts";
import { BINDING_JOB, type Actor, type ServiceDeps } from "./deps.ts";
import { throwIfAny } from "./user-errors.ts";

export interface BindingInput extends ConfigInput {
  stream: string;
  cluster: string;
}

export interface BindingKey {
  stream: string;
  cluster: string;
}

/** Bindings realize a stream on a cluster. Writes return at once; the reconciler does the work. */
export class BindingService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(input: BindingInput, { actor }: Actor): Promise<Binding> {
    const [stream, cluster] = await Promise.all([
      this.findStream(input.stream),
      this.findCluster(input.cluster),
    ]);
    const overrides = await this.checkOverrides(input, EMPTY_CONFIG_SET, stream, cluster);
    const fqn = formatFqn(this.deps.namespace, cluster.name, stream.name);
    const binding = await this.deps.db.prisma.$transaction(async (tx) => {
      // Serializes binding creation per stream, so exactly one first binding becomes the default.
      await tx.$queryRaw`SELECT id FROM stream WHERE id = ${stream.id}::uuid FOR UPDATE`;
      const siblings = await tx.binding.findMany({
        where: { streamId: stream.id },
        select: { clusterId: true, phase: true },
      });
      const existing = siblings.find((b) => b.clusterId === cluster.id);
      if (existing) {
        throw existing.phase === "DELETING"
          ? new RegistryError(
              ErrorCode.BEING_DELETED,
              `binding ${fqn} is being deleted; create it again once it is gone`,
              ["input"],
            )
          : new RegistryError(
              ErrorCode.ALREADY_EXISTS,
              `stream "${stream.name}" is already bound to cluster "${cluster.name}"`,
              ["input", "cluster"],
            );
      }
      const created = await tx.binding.create({
        data: { streamId: stream.id, clusterId: cluster.id, isDefault: siblings.length === 0, ...overrides },
      });
      await enqueueJob(tx, BINDING_JOB, created.id);
      await recordChange(tx, {
        entityType: "binding",
        entityKey: fqn,
        action: "created",
        generation: 1,
        actor,
      });
      return created;
    });
    this.deps.wakeReconciler();
    return binding;
  }

  async update(input: BindingInput, { actor }: Actor): Promise<Binding> {
    const { binding, stream, cluster } = await this.findBinding(input);
    const overrides = await this.checkOverrides(input, configSetOf(binding), stream, cluster);
    const fqn = formatFqn(this.deps.namespace, cluster.name, stream.name);
    const updated = await this.deps.db.prisma.$transaction(async (tx) => {
      const row = await tx.binding.update({
        where: { id: binding.id, phase: { not: "DELETING" } },
        data: { ...overrides, generation: { increment: 1 }, phase: "PENDING", statusUpdatedAt: new Date() },
      });
      await enqueueJob(tx, BINDING_JOB, row.id);
      await recordChange(tx, {
        entityType: "binding",
        entityKey: fqn,
        action: "updated",
        generation: row.generation,
        actor,
      });
      return row;
    });
    this.deps.wakeReconciler();
    return updated;
  }

  /** Asks for the binding to be deleted: it turns DELETING and goes once its provider removed it. */
  async delete(key: BindingKey, { actor }: Actor): Promise<Binding> {
    const { binding, stream, cluster } = await this.findBinding(key, { allowDeleting: true });
    if (binding.phase === "DELETING") return binding;
    const fqn = formatFqn(this.deps.namespace, cluster.name, stream.name);
    const updated = await this.deps.db.prisma.$transaction(async (tx) => {
      const row = await tx.binding.update({
        where: { id: binding.id },
        data: { phase: "DELETING", generation: { increment: 1 }, statusUpdatedAt: new Date(), message: null },
      });
      await enqueueJob(tx, BINDING_JOB, row.id);
      await recordChange(tx, {
        entityType: "binding",
        entityKey: fqn,
        action: "delete-requested",
        generation: row.generation,
        actor,
      });
      return row;
    });
    this.deps.wakeReconciler();
    return updated;
  }

  /** Checks binding-level overrides, then asks the cluster's provider about the effective config. */
  private async checkOverrides(input: ConfigInput, current: ConfigSet, stream: Stream, cluster: Cluster) {
    const errors: UserError[] = [];
    const overrides = checkConfigInput(input, current, this.deps.providers, errors);
    throwIfAny(errors);
    const provider = this.deps.providers.require(cluster.provider, ["input", "cluster"]);
    const effective = mergeConfigMaps(stream.config as ConfigMaps, overrides.config);
    await this.deps.providers.validateStream(
      provider,
      stream.name,
      effective,
      { namespace: this.deps.namespace, name: cluster.name, config: cluster.config as ConfigMaps },
      ["input", "config"],
    );
    return overrides;
  }

  private async findStream(name: string): Promise<Stream> {
    const stream = await this.deps.db.prisma.stream.findUnique({ where: { name } });
    if (!stream)
      throw new RegistryError(ErrorCode.NOT_FOUND, `stream "${name}" does not exist`, ["input", "stream"]);
    if (stream.deleting) {
      throw new RegistryError(ErrorCode.BEING_DELETED, `stream "${name}" is being deleted`, [
        "input",
        "stream",
      ]);
    }
    return stream;
  }

  private async findCluster(name: string): Promise<Cluster> {
    const cluster = await this.deps.db.prisma.cluster.findUnique({ where: { name } });
    if (!cluster)
      throw new RegistryError(ErrorCode.NOT_FOUND, `cluster "${name}" does not exist`, ["input", "cluster"]);
    return cluster;
  }

  private async findBinding(key: BindingKey, options: { allowDeleting?: boolean } = {}) {
    const binding = await this.deps.db.prisma.binding.findFirst({
      where: { stream: { name: key.stream }, cluster: { name: key.cluster } },
      include: { stream: true, cluster: true },
    });
    if (!binding) {
      throw new RegistryError(
        ErrorCode.NOT_FOUND,
        `stream "${key.stream}" has no binding on cluster "${key.cluster}"`,
        ["input"],
      );
    }
    if (binding.phase === "DELETING" && !options.allowDeleting) {
      const fqn = formatFqn(this.deps.namespace, key.cluster, key.stream);
      throw new RegistryError(ErrorCode.BEING_DELETED, `binding ${fqn} is being deleted`, ["input"]);
    }
    const { stream, cluster, ...row } = binding;
    return { binding: row, stream, cluster };
  }
}

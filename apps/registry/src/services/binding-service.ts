import {
  ErrorCode,
  formatFqn,
  Phase,
  quote,
  RegistryError,
  type Binding,
  type Cluster,
  type Stream,
  type UserError,
} from "@stream-registry/core";
import {
  createBinding,
  findBindingByNames,
  findStreamAndCluster,
  findStreamById,
  lockStream,
  writeTransaction,
} from "@stream-registry/store";
import { openedForValidation, streamOwner, type SealedOwner } from "../providers/opened-configs.ts";
import { checkBindingConfig } from "./binding-validation.ts";
import { refuseIfConnected } from "./connector-checks.ts";
import { changeBinding } from "./binding-writes.ts";
import {
  checkConfigInput,
  configSetOf,
  effectiveConfigSet,
  EMPTY_CONFIG_SET,
  type ConfigInput,
  type ConfigSet,
} from "./config-input.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import { retryOnStale, StaleRead } from "./optimistic.ts";
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

  async create(input: BindingInput, { actor, access }: Caller): Promise<Binding> {
    access.require("writer", "", `binding stream ${quote(input.stream)}`, input.stream);
    return retryOnStale(async () => {
      const { stream, cluster } = await this.findStreamAndCluster(input);
      const overrides = await this.checkOverrides(input, EMPTY_CONFIG_SET, stream, cluster);
      // Written only if the stream and the cluster are still as validated (same generations, the
      // stream not being deleted): otherwise it runs again, from the reads.
      const created = await createBinding(this.deps.db.prisma, { stream, cluster }, overrides, {
        actor,
        ...this.names(cluster, stream),
      });
      if ("stale" in created) throw new StaleRead();
      if ("existing" in created) {
        if (created.existing === Phase.DELETING) {
          throw new RegistryError(
            ErrorCode.BEING_DELETED,
            `binding ${this.fqn(cluster.name, stream.name)} is being deleted; create it again once it is gone`,
            ["input", "cluster"],
          );
        }
        throw new RegistryError(
          ErrorCode.ALREADY_EXISTS,
          `stream "${stream.name}" is already bound to cluster "${cluster.name}"`,
          ["input", "cluster"],
        );
      }
      const { binding } = created;
      this.deps.wakeReconciler();
      return binding;
    });
  }

  async update(input: BindingInput, { actor, access }: Caller): Promise<Binding> {
    access.require("writer", "", `updating the binding of stream ${quote(input.stream)}`, input.stream);
    return retryOnStale(async () => {
      const { binding, stream, cluster } = await this.findBinding(input);
      const overrides = await this.checkOverrides(input, configSetOf(binding), stream, cluster, binding.id);
      const updated = await writeTransaction(this.deps.db.prisma, async (tx) => {
        // Validated against this stream's maps: they must not have changed meanwhile.
        await lockStream(tx, stream.id, "write");
        const live = await findStreamById(tx, stream.id);
        if (live?.generation !== stream.generation) throw new StaleRead();
        return changeBinding(tx, binding, "desired-changed", overrides, actor, this.names(cluster, stream));
      });
      this.deps.wakeReconciler();
      return updated;
    });
  }

  /**
   * Asks for the binding to be deleted: it turns DELETING and goes once its provider removed it.
   * Asking again for a binding already DELETING retries its deletion at once.
   */
  async delete(key: BindingKey, { actor, access }: Caller): Promise<Binding> {
    access.require("writer", "", `deleting the binding of stream ${quote(key.stream)}`, key.stream);
    return retryOnStale(async () => {
      const { binding, stream, cluster } = await this.findBinding(key, { allowDeleting: true });
      const updated = await writeTransaction(this.deps.db.prisma, async (tx) => {
        await lockStream(tx, stream.id, "write"); // the default may move to a sibling
        if (binding.phase !== Phase.DELETING)
          await refuseIfConnected(tx, stream.name, cluster.id, ["input", "cluster"]);
        return changeBinding(tx, binding, "delete-requested", {}, actor, this.names(cluster, stream));
      });
      this.deps.wakeReconciler();
      return updated;
    });
  }

  private names(cluster: Cluster, stream: Stream) {
    return {
      namespace: this.deps.namespace,
      cluster: cluster.name,
      stream: stream.name,
      secrets: this.deps.providers.isSecret,
      keyring: this.deps.keyring,
    };
  }

  private bindingOwner(id: string, cluster: Cluster, stream: Stream): SealedOwner {
    return { kind: "binding", id, what: `binding ${JSON.stringify(this.fqn(cluster.name, stream.name))}` };
  }

  private fqn(cluster: string, stream: string): string {
    return formatFqn(this.deps.namespace, cluster, stream);
  }

  /**
   * Checks binding-level overrides, that the cluster's provider gets every map it requires, and
   * what the provider says of the effective config.
   */
  private async checkOverrides(
    input: ConfigInput,
    current: ConfigSet,
    stream: Stream,
    cluster: Cluster,
    bindingId?: string,
  ): Promise<ConfigSet> {
    const errors: UserError[] = [];
    const owner = bindingId ? this.bindingOwner(bindingId, cluster, stream) : undefined;
    const openCurrent = owner ? await openedForValidation(this.deps, owner, current) : current;
    const overrides = checkConfigInput(input, current, this.deps.providers, errors, openCurrent);
    throwIfAny(errors);
    // The provider validates the values: sealed secrets kept from the stream and the binding are
    // opened for it (left as placeholders if they cannot be, as realizing them will report).
    const streamSet = configSetOf(stream);
    const openStream = await openedForValidation(this.deps, streamOwner(stream), streamSet);
    const openOwn = owner ? await openedForValidation(this.deps, owner, overrides) : overrides;
    await checkBindingConfig(
      this.deps,
      stream.name,
      effectiveConfigSet(openStream ?? streamSet, openOwn ?? overrides),
      cluster,
    );
    return overrides;
  }

  private async findStreamAndCluster(input: BindingKey): Promise<{ stream: Stream; cluster: Cluster }> {
    const { stream, cluster } = await findStreamAndCluster(this.deps.db.prisma, input.stream, input.cluster);
    if (!stream) {
      throw new RegistryError(ErrorCode.NOT_FOUND, `stream "${input.stream}" does not exist`, [
        "input",
        "stream",
      ]);
    }
    if (stream.deleting) {
      throw new RegistryError(ErrorCode.BEING_DELETED, `stream "${input.stream}" is being deleted`, [
        "input",
        "stream",
      ]);
    }
    if (!cluster) {
      throw new RegistryError(ErrorCode.NOT_FOUND, `cluster "${input.cluster}" does not exist`, [
        "input",
        "cluster",
      ]);
    }
    return { stream, cluster };
  }

  private async findBinding(key: BindingKey, options: { allowDeleting?: boolean } = {}) {
    const found = await findBindingByNames(this.deps.db.prisma, key.stream, key.cluster);
    if (!found) {
      throw new RegistryError(
        ErrorCode.NOT_FOUND,
        `stream "${key.stream}" has no binding on cluster "${key.cluster}"`,
        ["input", "cluster"],
      );
    }
    const { binding } = found;
    if (binding.phase === "DELETING" && !options.allowDeleting) {
      throw new RegistryError(
        ErrorCode.BEING_DELETED,
        `binding ${this.fqn(key.cluster, key.stream)} is being deleted`,
        ["input", "cluster"],
      );
    }
    return found;
  }
}

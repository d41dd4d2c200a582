import {
  checkName,
  checkSubjectNameStrategy,
  configMapsEqual,
  ErrorCode,
  fqnPrefix,
  quote,
  RegistryError,
  type Stream,
  type UserError,
} from "@stream-registry/core";
import {
  createStream,
  deleteStream,
  findLiveBindingsOfStream,
  findStream,
  findStreamWithBindings,
  isUniqueViolation,
  liveBindingVersions,
  lockStream,
  lockStreamByName,
  markStreamDeleting,
  updateStream,
  writeTransaction,
} from "@stream-registry/store";
import { openedForValidation, streamOwner } from "../providers/opened-configs.ts";
import { checkBindingConfig } from "./binding-validation.ts";
import { changeBinding } from "./binding-writes.ts";
import {
  checkConfigInput,
  configSetOf,
  effectiveConfigSet,
  EMPTY_CONFIG_SET,
  givesSecretsIn,
  type ConfigInput,
  type ConfigSet,
} from "./config-input.ts";
import { refuseIfConnected } from "./connector-checks.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import { retryOnStale, StaleRead } from "./optimistic.ts";
import { asUserErrors, pushIf, throwIfAny, UserErrors } from "./user-errors.ts";

export interface StreamInput extends ConfigInput {
  name: string;
}

export class StreamService {
  constructor(private readonly deps: ServiceDeps) {}

  async create(input: StreamInput, { actor, access }: Caller): Promise<Stream> {
    access.require("writer", "", `creating stream ${quote(input.name)}`, input.name);
    const errors: UserError[] = [];
    pushIf(errors, checkName(input.name, ["input", "name"], "stream name"));
    const configs = checkConfigInput(input, EMPTY_CONFIG_SET, this.deps.providers, errors);
    errors.push(...checkSubjectNameStrategy(configs.config, ["input", "config"]));
    throwIfAny(errors);
    try {
      return await createStream(this.deps.db.prisma, input.name, configs, {
        actor,
        secrets: this.deps.providers.isSecret,
        keyring: this.deps.keyring,
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
   * nothing (no generation bump), so re-applying a declaration is cheap; one that gives a secret
   * in clear is never a no-op (see givesSecretsIn).
   */
  async update(input: StreamInput, { actor, access }: Caller): Promise<Stream> {
    access.require("writer", "", `updating stream ${quote(input.name)}`, input.name);
    return retryOnStale(async () => {
      const current = await this.findLive(input.name);
      const errors: UserError[] = [];
      const stored = configSetOf(current);
      const opened = await openedForValidation(this.deps, streamOwner(current), stored);
      const configs = checkConfigInput(input, stored, this.deps.providers, errors, opened);
      errors.push(...checkSubjectNameStrategy(configs.config, ["input", "config"]));
      throwIfAny(errors);
      const noOp = sameConfigs(configs, configSetOf(current)) && !givesSecretsIn(input, this.deps.providers);
      if (noOp) return current;
      const validated = await this.validateOnClusters(current, configs);

      const by = {
        actor,
        secrets: this.deps.providers.isSecret,
        keyring: this.deps.keyring,
        fqnPrefix: fqnPrefix(this.deps.namespace),
      };
      const stream = await writeTransaction(this.deps.db.prisma, async (tx) => {
        // The bindings validated must still be the ones to reconcile, at the same generations;
        // binding writes take the stream's lock too, so none slips in before the update.
        await lockStream(tx, current.id, "write");
        const live = await liveBindingVersions(tx, current.id);
        if (live.join() !== validated.join()) throw new StaleRead();
        const updated = await updateStream(tx, current, configs, by);
        if (!updated) throw new StaleRead();
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
    { actor, access }: Caller,
  ): Promise<{ stream: Stream; deleted: boolean }> {
    access.require("writer", "", `deleting stream ${quote(name)}`, name);
    // Run again if a binding's generation moves under a cascade (its cluster's new config).
    const result = await retryOnStale(() => this.deleteOnce(name, cascade, actor));
    if (!result.deleted) this.deps.wakeReconciler();
    return result;
  }

  private deleteOnce(name: string, cascade: boolean, actor: string) {
    return writeTransaction(this.deps.db.prisma, async (tx) => {
      // No binding is created, changed or removed meanwhile: they all take the stream's lock.
      await lockStreamByName(tx, name, "delete");
      const found = await findStreamWithBindings(tx, name);
      if (!found) throw notFound(name);
      const { stream, bindings } = found;
      if (bindings.length === 0) {
        await deleteStream(tx, stream, actor);
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
      await refuseIfConnected(tx, name, undefined, ["input", "name"]);
      const deleting = await markStreamDeleting(tx, stream, actor);
      for (const { cluster, ...binding } of bindings.sort((a, b) => (a.id < b.id ? -1 : 1))) {
        await changeBinding(tx, binding, "delete-requested", {}, actor, {
          namespace: this.deps.namespace,
          cluster: cluster.name,
          stream: name,
          secrets: this.deps.providers.isSecret,
          keyring: this.deps.keyring,
        });
      }
      return { stream: deleting, deleted: false };
    });
  }

  /**
   * Asks each bound cluster's provider whether it can realize the new maps; returns the bindings
   * checked, which must still be the same when the update is written.
   */
  private async validateOnClusters(stream: Stream, configs: ConfigSet): Promise<string[]> {
    const bindings = await findLiveBindingsOfStream(this.deps.db.prisma, stream.id);
    // The provider validates the values: sealed secrets kept are opened for it (left as
    // placeholders if they cannot be, as realizing them will report).
    const opened =
      bindings.length > 0 ? await openedForValidation(this.deps, streamOwner(stream), configs) : configs;
    for (const binding of bindings) {
      if (!this.deps.providers.get(binding.cluster.provider)) continue; // shown on the binding's status
      const own = configSetOf(binding);
      const openOwn = await openedForValidation(
        this.deps,
        {
          kind: "binding",
          id: binding.id,
          what: `binding of stream ${quote(stream.name)} on cluster ${quote(binding.cluster.name)}`,
        },
        own,
      );
      const effective = effectiveConfigSet(opened ?? configs, openOwn ?? own);
      await checkBindingConfig(this.deps, stream.name, effective, binding.cluster).catch((error: unknown) => {
        throw onCluster(error, binding.cluster.name);
      });
    }
    return bindings.map((b) => `${b.id}@${b.generation}`);
  }

  private async findLive(name: string): Promise<Stream> {
    const stream = await findStream(this.deps.db.prisma, name);
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

/** Says which bound cluster refused, since the input names only the stream. */
function onCluster(error: unknown, cluster: string): unknown {
  const errors = asUserErrors(error);
  if (!errors) return error;
  return new UserErrors(errors.map((e) => ({ ...e, message: `on cluster "${cluster}": ${e.message}` })));
}

import {
  checkName,
  checkPageSize,
  ErrorCode,
  keepStoredSecrets,
  Phase,
  quote,
  RegistryError,
  type Access,
  type Cluster,
  type ConfigMaps,
  type ConnectorRole,
  type ConnectorRunState,
} from "@stream-registry/core";
import type { ConnectorRequest, ConnectorType } from "@stream-registry/provider-api";
import {
  changeConnector,
  countConnectors,
  createConnector,
  findCluster,
  findConnector,
  hasLiveBinding,
  listConnectors,
  openSets,
  writeTransaction,
  type ConnectorChange,
  type ConnectorFilter,
  type ConnectorOnCluster,
} from "@stream-registry/store";
import { clusterTarget } from "../providers/cluster-target.ts";
import {
  checkType,
  checkWithProvider,
  connectorManager,
  requireManager,
  ROLE_NAMES,
} from "./connector-checks.ts";
import { applyConfigMapsChange, readConfigMapsChange } from "./config-replace.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import { retryOnStale, StaleRead } from "./optimistic.ts";
import { cursorFields, page, type Page, type PageArgs } from "./page.ts";
import { throwIfAny } from "./user-errors.ts";

export interface ConnectorInput {
  name: string;
  cluster: string;
  type: string;
  config: unknown;
  desiredState?: ConnectorRunState | null;
}

/**
 * Stream sources or sinks (one service a role, one code path): writes are checked against the
 * cluster's types and its provider's validation, which creates nothing, and return at once; the
 * reconciler realizes them. Restarts are asked of the provider at once.
 */
export class ConnectorService {
  private readonly names: { one: string; many: string };

  constructor(
    private readonly deps: ServiceDeps,
    readonly role: ConnectorRole,
  ) {
    this.names = ROLE_NAMES[role];
  }

  /** The types `cluster` offers; none, with the reason, where its provider has none or no platform. */
  async types(clusterName: string, access: Access): Promise<{ types: ConnectorType[]; reason?: string }> {
    access.require("reader", "", `listing the ${this.names.one} types of cluster ${quote(clusterName)}`);
    const cluster = await this.cluster(clusterName, ["cluster"]);
    const provider = this.deps.providers.require(cluster.provider, ["cluster"]);
    const manager = connectorManager(provider, this.role);
    if (!manager)
      return { types: [], reason: `provider ${quote(provider.kind)} does not realize ${this.names.many}` };
    const target = await clusterTarget(this.deps, cluster);
    return this.deps.providers.callValidation(provider, ["cluster"], (signal) =>
      manager.types(target, { signal }),
    );
  }

  /** The source or sink `name`, or null when there is none or the principal may not read it. */
  async get(name: string, access: Access): Promise<ConnectorOnCluster | null> {
    if (!access.can("reader", "", name)) return null;
    return findConnector(this.deps.db.prisma, this.role, name);
  }

  /** Sources or sinks by name (`access`: those of the streams the principal reads). */
  async list(filter: ConnectorFilter | null | undefined, args: PageArgs, access: Access) {
    const list = `${this.role}s`;
    const take = checkPageSize(args.first, ["first"]);
    const after = args.after ? cursorFields(args.after, list, { name: "string" }).name : undefined;
    const visible = access.visibility("stream");
    const { prisma } = this.deps.db;
    const rows = await listConnectors(prisma, this.role, filter ?? {}, { after, limit: take + 1 }, visible);
    return page(
      list,
      rows,
      take,
      after !== undefined,
      (row) => ({ name: row.name }),
      () => countConnectors(prisma, this.role, filter ?? {}, visible),
    ) satisfies Page<ConnectorOnCluster>;
  }

  async create(input: ConnectorInput, { actor, access }: Caller): Promise<ConnectorOnCluster> {
    access.require("writer", "", `creating ${this.names.one} ${quote(input.name)}`, input.name);
    throwIfAny([checkName(input.name, ["input", "name"], `${this.names.one} name`)].filter((e) => !!e));
    const config = this.readConfig(input.config, {});
    return retryOnStale(async () => {
      const cluster = await this.cluster(input.cluster, ["input", "cluster"]);
      await this.checkNew(input.name, cluster);
      const desiredState = input.desiredState ?? "RUNNING";
      await this.validate(cluster, { name: input.name, type: input.type, config, desiredState });
      const created = await createConnector(
        this.deps.db.prisma,
        this.role,
        cluster,
        { name: input.name, type: input.type, config, desiredState },
        this.writer(actor),
      );
      if ("stale" in created) throw new StaleRead();
      if ("unbound" in created) throw this.unbound(input.name, cluster.name);
      if ("existing" in created) throw this.exists(input.name, created.existing);
      this.deps.wakeReconciler();
      return created.connector;
    });
  }

  /** New config maps: each map named replaces the stored one, null removes it, others stay. */
  async update(input: { name: string; config: unknown }, caller: Caller): Promise<ConnectorOnCluster> {
    caller.access.require("writer", "", `updating ${this.names.one} ${quote(input.name)}`, input.name);
    return retryOnStale(async () => {
      const current = await this.find(input.name);
      const config = this.readConfig(input.config, current.config);
      await this.validate(current.cluster, { ...current, config }, current.id);
      return this.change(current, { config }, caller);
    });
  }

  /** PAUSE, RESUME (RUNNING) or STOP: desired state, realized by the reconciler. */
  async setState(name: string, desiredState: ConnectorRunState, caller: Caller): Promise<ConnectorOnCluster> {
    const doing = { RUNNING: "resuming", PAUSED: "pausing", STOPPED: "stopping" }[desiredState];
    caller.access.require("writer", "", `${doing} ${this.names.one} ${quote(name)}`, name);
    return retryOnStale(async () => this.change(await this.find(name), { desiredState }, caller));
  }

  /** Asks for it to be deleted: DELETING until its provider removed it (asking again retries at once). */
  async delete(name: string, caller: Caller): Promise<ConnectorOnCluster> {
    caller.access.require("writer", "", `deleting ${this.names.one} ${quote(name)}`, name);
    return retryOnStale(async () =>
      this.change(await this.find(name, { allowDeleting: true }), { delete: true }, caller),
    );
  }

  /** RESTART: the provider restarts the connector and its tasks (only the failed ones with `onlyFailed`). */
  async restart(name: string, onlyFailed: boolean, { access }: Caller): Promise<ConnectorOnCluster> {
    access.require("writer", "", `restarting ${this.names.one} ${quote(name)}`, name);
    const current = await this.find(name);
    if (current.observedGeneration === null) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `${this.names.one} ${quote(name)} was not realized yet; there is nothing to restart`,
        ["input", "name"],
      );
    }
    const manager = requireManager(this.deps.providers, current.cluster, this.role, ["input", "name"]);
    const provider = this.deps.providers.require(current.cluster.provider, ["input", "name"]);
    const target = { name, cluster: await clusterTarget(this.deps, current.cluster) };
    await this.deps.providers.callValidation(provider, ["input", "name"], (signal) =>
      manager.restart(target, { onlyFailed }, { signal }),
    );
    return current;
  }

  private async change(
    current: ConnectorOnCluster,
    change: ConnectorChange,
    { actor }: Caller,
  ): Promise<ConnectorOnCluster> {
    const changed = await writeTransaction(this.deps.db.prisma, (tx) =>
      changeConnector(tx, current, change, this.writer(actor)),
    );
    if (!changed) throw new StaleRead();
    this.deps.wakeReconciler();
    return changed;
  }

  /** The shape of the given maps, and placeholders of stored secrets kept (against `stored`). */
  private readConfig(given: unknown, stored: ConfigMaps): ConfigMaps {
    const field = ["input", "config"];
    const { change, errors } = readConfigMapsChange(given, field, this.deps.providers.isSecret);
    throwIfAny(errors);
    const kept = keepStoredSecrets(change.maps, stored, this.deps.providers.isSecret, field);
    throwIfAny(kept.errors);
    return applyConfigMapsChange(stored, { maps: kept.maps, removed: change.removed });
  }

  /** Refuses a name taken, or one whose stream has no live binding on the cluster. */
  private async checkNew(name: string, cluster: Cluster): Promise<void> {
    const existing = await findConnector(this.deps.db.prisma, this.role, name);
    if (existing) throw this.exists(name, existing.phase);
    if (!(await hasLiveBinding(this.deps.db.prisma, name, cluster.id)))
      throw this.unbound(name, cluster.name);
  }

  /**
   * The type must be one the cluster offers, and the provider's validation (which creates
   * nothing) must pass, with the stored secrets of `id` opened for it.
   */
  private async validate(
    cluster: Cluster,
    spec: { name: string; type: string; config: ConfigMaps; desiredState: ConnectorRunState },
    id?: string,
  ): Promise<void> {
    const field = { cluster: ["input", "cluster"], type: ["input", "type"], config: ["input", "config"] };
    const manager = requireManager(this.deps.providers, cluster, this.role, field.cluster);
    const provider = this.deps.providers.require(cluster.provider, field.cluster);
    const target = await clusterTarget(this.deps, cluster);
    const offered = await this.deps.providers.callValidation(provider, field.cluster, (signal) =>
      manager.types(target, { signal }),
    );
    checkType(offered, spec.type, cluster.name, this.role, field);
    const opened = id
      ? await openSets(
          this.deps.db.prisma,
          this.deps.keyring,
          { kind: this.role, id },
          { config: spec.config },
          `${this.names.one} ${quote(spec.name)}`,
        )
      : { config: spec.config };
    const request: ConnectorRequest = {
      name: spec.name,
      cluster: target,
      type: spec.type,
      configMaps: opened.config,
      state: spec.desiredState,
    };
    await checkWithProvider(this.deps.providers, cluster, manager, request, field);
  }

  private async cluster(name: string, field: string[]): Promise<Cluster> {
    const found = await findCluster(this.deps.db.prisma, name);
    if (!found) throw new RegistryError(ErrorCode.NOT_FOUND, `cluster ${quote(name)} does not exist`, field);
    return found;
  }

  private async find(name: string, options: { allowDeleting?: boolean } = {}): Promise<ConnectorOnCluster> {
    const found = await findConnector(this.deps.db.prisma, this.role, name);
    if (!found) {
      throw new RegistryError(ErrorCode.NOT_FOUND, `${this.names.one} ${quote(name)} does not exist`, [
        "input",
        "name",
      ]);
    }
    if (found.phase === Phase.DELETING && !options.allowDeleting)
      throw new RegistryError(ErrorCode.BEING_DELETED, `${this.names.one} ${quote(name)} is being deleted`, [
        "input",
        "name",
      ]);
    return found;
  }

  private exists(name: string, phase: Phase): RegistryError {
    if (phase === Phase.DELETING)
      return new RegistryError(
        ErrorCode.BEING_DELETED,
        `${this.names.one} ${quote(name)} is being deleted; create it again once it is gone`,
        ["input", "name"],
      );
    return new RegistryError(ErrorCode.ALREADY_EXISTS, `${this.names.one} ${quote(name)} already exists`, [
      "input",
      "name",
    ]);
  }

  private unbound(name: string, cluster: string): RegistryError {
    return new RegistryError(
      ErrorCode.NOT_FOUND,
      `stream ${quote(name)} is not bound to cluster ${quote(cluster)}; a ${this.names.one} needs a binding of the stream of the same name there`,
      ["input", "name"],
    );
  }

  private writer(actor: string) {
    return { actor, secrets: this.deps.providers.isSecret, keyring: this.deps.keyring };
  }
}

import {
  autoRestartDue,
  autoRestartsSettled,
  type AutoRestartPolicy,
  type ConnectorRole,
  type ObservedConnectorState,
} from "@stream-registry/core";
import type { ConnectorObservation, ConnectorRequest, ConnectorTarget } from "@stream-registry/provider-api";
import {
  CONNECTOR_RESOURCES,
  findConnectorById,
  findConnectorObservations,
  findConnectorsToObserve,
  openSets,
  recordChange,
  saveResourceObservation,
  writeAutoRestarts,
  writeTransaction,
  type ConnectorOnCluster,
  type ObservationReport,
} from "@stream-registry/store";
import { clusterTarget } from "../../providers/cluster-target.ts";
import { withOpened } from "../../providers/opened-configs.ts";
import { connectorManager, ROLE_NAMES } from "../../services/connector-checks.ts";
import type { HandlerContext, ReconcileHandler } from "../handler.ts";
import { managedHandler, type ManagedKindDeps, type OpenCluster } from "./managed-handler.ts";

export type ConnectorKindDeps = ManagedKindDeps & {
  /** When failed connectors are restarted automatically. */
  restart: AutoRestartPolicy;
};

/**
 * Stream sources and sinks, one handler for both roles: a connector realized by the cluster's
 * provider (Kafka: PUT /connectors/{name}/config, with its run state). What a create journals is
 * its type, config maps (secrets as their placeholders) and run state. Observing it (the resync's
 * observe; a realize's own observation is stored by the kernel without passing here) restarts a
 * FAILED or DEGRADED one when the policy says it is due, counting the restarts durably, and logs a
 * change of its observed state, so a parent's index follows it. The create journal's look before a
 * create or delete (create-journal.ts) is an observe too, and does the same.
 */
export function connectorHandler(
  deps: ConnectorKindDeps,
  role: ConnectorRole,
): ReconcileHandler<ConnectorOnCluster> {
  const { db } = deps;
  const createRequest = (connector: ConnectorOnCluster) => ({
    type: connector.type,
    configMaps: connector.config,
    state: connector.desiredState,
  });
  const target = async (connector: ConnectorOnCluster, open: OpenCluster): Promise<ConnectorTarget> => ({
    name: connector.name,
    cluster: await open(connector.cluster),
  });
  const managed = managedHandler<ConnectorOnCluster, ConnectorRequest, ConnectorTarget>(deps, {
    resource: CONNECTOR_RESOURCES[role],
    plural: ROLE_NAMES[role].many,
    load: (id) => findConnectorById(db.prisma, role, id),
    name: (connector) => connector.name,
    location: (connector) => `cluster "${connector.cluster.name}"`,
    journaled: () => true,
    cluster: (connector) => connector.cluster,
    manager: (provider) => connectorManager(provider, role),
    createRequest,
    target,
    // The journaled request's placeholders are opened with the secrets stored now (as a binding's).
    async request(connector, journaled, open) {
      const shown = { ...createRequest(connector), ...(journaled as Partial<ConnectorRequest> | undefined) };
      const opened = await openSets(
        db.prisma,
        deps.keyring,
        { kind: role, id: connector.id },
        { config: connector.config },
        `${ROLE_NAMES[role].one} ${JSON.stringify(connector.name)}`,
      );
      return {
        ...shown,
        name: connector.name,
        cluster: await open(connector.cluster),
        configMaps: withOpened(shown.configMaps, opened.config),
      };
    },
    findToObserve: (query) => findConnectorsToObserve(db.prisma, role, query),
  });

  /** Restarts it when due (FAILED or DEGRADED), or counts its restarts anew once it ran healthy long enough. */
  const afterObserving = async (
    connector: ConnectorOnCluster,
    seen: ObservationReport | null,
    context: HandlerContext,
  ): Promise<void> => {
    const state = (seen?.details as ConnectorObservation["details"] | undefined)?.state;
    if (!state) return;
    await logStateChange(connector, seen!, state);
    const now = new Date();
    if (state === "FAILED" || state === "DEGRADED") {
      if (!autoRestartDue(connector, now, deps.restart)) return;
      // Counted first, and only by the observer that read the current count: a user's change
      // in between, or another registry process on the same row, means no restart from this one.
      if (
        !(await writeAutoRestarts(db.prisma, role, connector.id, connector, connector.autoRestarts + 1, now))
      )
        return;
      const manager = connectorManager(deps.providers.get(connector.cluster.provider)!, role)!;
      const where = { name: connector.name, cluster: await clusterTarget(deps, connector.cluster) };
      await manager.restart(where, { onlyFailed: true }, context);
    } else if (autoRestartsSettled(connector, now, deps.restart)) {
      await writeAutoRestarts(db.prisma, role, connector.id, connector, 0, null);
    }
  };
  /**
   * A change of what the platform says of it is a change-log entry, written after the observation
   * that shows it: a parent's index, following the entry, reads the new state.
   */
  const logStateChange = async (
    connector: ConnectorOnCluster,
    seen: ObservationReport,
    state: ObservedConnectorState,
  ) => {
    const before = (await findConnectorObservations(db.prisma, role, [connector.id])).get(connector.id);
    const was = (before?.details as { state?: string } | undefined)?.state;
    if (was === undefined || was === state) return;
    await saveResourceObservation(db.prisma, CONNECTOR_RESOURCES[role], connector.id, seen);
    await writeTransaction(db.prisma, (tx) =>
      recordChange(tx, {
        entityType: role,
        entityKey: connector.name,
        action: "status",
        generation: connector.generation,
        actor: "reconciler",
        data: { state },
      }),
    );
  };

  return {
    ...managed,
    observe: async (connector, context) => {
      const seen = await managed.observe(connector, context);
      await afterObserving(connector, seen, context);
      return seen;
    },
  };
}

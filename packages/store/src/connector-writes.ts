import { randomUUID } from "node:crypto";
import {
  redactSecrets,
  type ConfigMaps,
  type ConnectorRole,
  type ConnectorRunState,
  type Phase,
  type SecretKeyRule,
} from "@stream-registry/core";
import { recordChange } from "./change-log.ts";
import { sealSets, sealUpdate, envelopeInsertSql, type SealingPolicy } from "./config-sealing.ts";
import { findConnectorById, hasLiveBinding, type ConnectorOnCluster } from "./connector-reads.ts";
import { CONNECTOR_RESOURCES } from "./connector-table.ts";
import type { Db, DbClient } from "./db.ts";
import { isUniqueViolation } from "./db-errors.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { enqueueJob } from "./job-queue.ts";
import { writeResourcePhase } from "./resource-phase.ts";
import { writeTransaction, type Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/** Writes of stream sources and sinks, one code path for both (their role's table). */

/** Who writes, which keys are secret and the keys secrets are sealed with. */
export interface ConnectorWriter extends SealingPolicy {
  actor: string;
}

/** A new source's or sink's desired state. */
export interface ConnectorSpec {
  name: string;
  type: string;
  config: ConfigMaps;
  desiredState: ConnectorRunState;
}

/** What a create came to: the source or sink, or why it was not written. */
export type ConnectorCreation =
  | { connector: ConnectorOnCluster }
  /** The cluster changed since it was read. */
  | { stale: true }
  /** The stream of its name has no live binding on the cluster (any more). */
  | { unbound: true }
  /** One of that name exists; it is in `phase`. */
  | { existing: Phase };

/**
 * A new source or sink with its reconcile job and change-log entry, in one transaction that first
 * share-locks the cluster as read and checks the binding of the stream of its name is there.
 */
export async function createConnector(
  db: DbClient,
  role: ConnectorRole,
  cluster: { id: string; generation: number; name: string },
  spec: ConnectorSpec,
  by: ConnectorWriter,
): Promise<ConnectorCreation> {
  const id = randomUUID();
  const owner = { kind: role, id } as const;
  const { table } = CONNECTOR_RESOURCES[role];
  try {
    return await writeTransaction(db, async (tx): Promise<ConnectorCreation> => {
      const [locked] = await open(tx).$queryRaw<{ generation: number }[]>`
        SELECT generation FROM cluster WHERE id = ${cluster.id}::uuid FOR SHARE`;
      if (locked?.generation !== cluster.generation) return { stale: true };
      if (!(await hasLiveBinding(tx, spec.name, cluster.id))) return { unbound: true };
      const { shown, envelope } = sealSets(owner, { config: spec.config }, null, by, what(role, spec.name));
      const now = new Date();
      // pending_creates []: nothing sent yet (the create journal).
      await open(tx).$executeRaw`
        INSERT INTO ${table} (id, name, cluster_id, type, config, desired_state, generation,
          pending_creates, created_at, updated_at, status_updated_at)
        VALUES (${id}::uuid, ${spec.name}, ${cluster.id}::uuid, ${spec.type},
          ${JSON.stringify(shown.config)}::jsonb, ${spec.desiredState}::"ConnectorRunState", 1, '[]'::jsonb,
          ${now}, ${now}, ${now})`;
      const sealed = envelopeInsertSql(owner, envelope, Prisma.empty);
      if (sealed) await open(tx).$executeRaw`${sealed}`;
      await enqueueJob(tx, role, id);
      await recordChange(tx, {
        entityType: role,
        entityKey: spec.name,
        action: "created",
        generation: 1,
        actor: by.actor,
        data: changeData({ ...spec, config: shown.config }, cluster.name, by.secrets),
      });
      return { connector: (await findConnectorById(tx, role, id))! };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const [existing] = await open(db).$queryRaw<{ phase: Phase }[]>`
      SELECT phase::text AS phase FROM ${table} WHERE name = ${spec.name}`;
    return existing ? { existing: existing.phase } : { stale: true };
  }
}

/** A change of a source's or sink's desired state: new config maps, a run state, or a delete. */
export type ConnectorChange = { config: ConfigMaps } | { desiredState: ConnectorRunState } | { delete: true };

/**
 * Writes a change of a source's or sink's desired state: a new generation, the phase the state
 * machine gives, the automatic restarts counted anew, a reconcile job and a change-log entry. Null,
 * writing nothing, if it changed since `read` was read.
 */
export async function changeConnector(
  tx: Tx,
  read: ConnectorOnCluster,
  change: ConnectorChange,
  by: ConnectorWriter,
): Promise<ConnectorOnCluster | null> {
  const { role } = read;
  const resource = CONNECTOR_RESOURCES[role];
  const deleting = "delete" in change;
  const { written } = await writeResourcePhase(
    tx,
    resource,
    { id: read.id, generation: read.generation },
    { from: read.phase, event: deleting ? "delete-requested" : "desired-changed" },
    { message: null },
  );
  if (!written) return null;
  const config =
    "config" in change
      ? (
          await sealUpdate(
            tx,
            { kind: role, id: read.id },
            { config: change.config },
            by,
            what(role, read.name),
          )
        ).config
      : read.config;
  const desiredState = "desiredState" in change ? change.desiredState : read.desiredState;
  await open(tx).$executeRaw`
    UPDATE ${resource.table} SET generation = generation + 1, config = ${JSON.stringify(config)}::jsonb,
      desired_state = ${desiredState}::"ConnectorRunState", auto_restarts = 0, last_restart_at = NULL,
      updated_at = ${new Date()}
    WHERE id = ${read.id}::uuid`;
  await enqueueJob(tx, role, read.id);
  await recordChange(tx, {
    entityType: role,
    entityKey: read.name,
    action: deleting ? "delete-requested" : "updated",
    generation: read.generation + 1,
    actor: by.actor,
    data: deleting ? {} : changeData({ ...read, config, desiredState }, read.cluster.name, by.secrets),
  });
  return findConnectorById(tx, role, read.id);
}

/**
 * Counts an automatic restart of a failed source or sink (`restarts` since it last ran healthy, at
 * `at`), or starts the count over once it ran healthy long enough (0, null), only if the row still
 * holds what the caller read (`seen`: its count and generation): false when a user's change (which
 * starts the count over) or another registry process's observation came first, and the caller then
 * does nothing. Kept durably: the delays and the maximum survive a restart of the registry.
 */
export async function writeAutoRestarts(
  db: Db,
  role: ConnectorRole,
  id: string,
  seen: { autoRestarts: number; generation: number },
  restarts: number,
  at: Date | null,
): Promise<boolean> {
  const updated = await open(db).$executeRaw`
    UPDATE ${CONNECTOR_RESOURCES[role].table} SET auto_restarts = ${restarts}::int, last_restart_at = ${at}
    WHERE id = ${id}::uuid AND auto_restarts = ${seen.autoRestarts}::int AND generation = ${seen.generation}::int`;
  return updated === 1;
}

function what(role: ConnectorRole, name: string): string {
  return `stream ${role} ${JSON.stringify(name)}`;
}

function changeData(
  connector: { type: string; config: ConfigMaps; desiredState: ConnectorRunState },
  cluster: string,
  secrets: SecretKeyRule,
) {
  return {
    cluster,
    type: connector.type,
    desiredState: connector.desiredState,
    config: redactSecrets(connector.config, secrets),
  };
}

import { randomUUID } from "node:crypto";
import {
  formatFqn,
  Phase,
  redactSecrets,
  type Binding,
  type ConfigMaps,
  type SecretKeyRule,
} from "@stream-registry/core";
import { writeBindingPhase, type PhaseWriteFields } from "./binding-phase.ts";
import { BINDING_COLUMNS, BINDING_SQL_COLUMNS, toBinding, type BindingRow } from "./binding-row.ts";
import { BINDING_JOB } from "./bindings.ts";
import { changeInsertSql, recordChange } from "./change-log.ts";
import { envelopeInsertSql, sealSets, sealUpdate, type SealingPolicy } from "./config-sealing.ts";
import type { Db } from "./db.ts";
import { isUniqueViolation } from "./db-errors.ts";
import { Prisma } from "./generated/prisma/client.ts";
import { enqueueJob, jobInsertSql } from "./job-queue.ts";
import { lockedClusterAndStream } from "./row-locks.ts";
import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/**
 * Who writes, the binding's names for its change-log key, which keys are secret and the keys its
 * secrets are sealed with (as a stream's: streams.ts).
 */
export interface BindingWriter extends SealingPolicy {
  actor: string;
  namespace: string;
  stream: string;
  cluster: string;
}

/** A binding's three sets of override maps. */
export type BindingOverrides = Partial<Record<"config" | "producerConfig" | "consumerConfig", ConfigMaps>>;

/** What a binding's create came to: the binding, or why it was not written. */
export type BindingCreation =
  | { binding: Binding }
  /** The stream or the cluster changed since they were read, or the stream began to be deleted. */
  | { stale: true }
  /** The stream is bound to the cluster already; the binding there is in `phase`. */
  | { existing: Phase };

/**
 * A new binding with its reconcile job and change-log entry, in one statement that first locks
 * the cluster and the stream as read (`lockedClusterAndStream`). The first live binding of a
 * stream is its default; two first bindings committing at once cannot both be, since the database
 * holds one default per stream (binding_one_default_per_stream): the later one is `stale`, and
 * its retry sees the default.
 */
export async function createBinding(
  db: Db,
  read: { stream: { id: string; generation: number }; cluster: { id: string; generation: number } },
  overrides: BindingOverrides,
  by: BindingWriter,
): Promise<BindingCreation> {
  const id = randomUUID();
  const fqn = formatFqn(by.namespace, by.cluster, by.stream);
  const owner = { kind: "binding", id } as const;
  const given = {
    config: overrides.config ?? {},
    producerConfig: overrides.producerConfig ?? {},
    consumerConfig: overrides.consumerConfig ?? {},
  };
  const { shown: maps, envelope } = sealSets(owner, given, null, by, `binding ${JSON.stringify(fqn)}`);
  const sealed = envelopeInsertSql(owner, envelope, Prisma.sql`FROM created`);
  const json = (value: ConfigMaps) => JSON.stringify(value);
  const logged = changeInsertSql(
    {
      entityType: "binding",
      entityKey: fqn,
      action: "created",
      generation: 1,
      actor: by.actor,
      data: changeData(maps, by.secrets),
    },
    Prisma.sql`FROM created`,
  );
  try {
    // pending_creates []: nothing sent yet (the create journal, apps/registry/src/reconciler/create-journal.ts).
    const [row] = await open(db).$queryRaw<BindingRow[]>`
      WITH locked AS (${lockedClusterAndStream(read.cluster, read.stream)}),
      -- Stamped once the stream is locked: bindings are listed by creation, the default first,
      -- so a binding must not be older than the default that committed while it waited. The
      -- clock is the database's: the bindings of one stream may be made by several processes.
      stamped AS (SELECT locked.id, clock_timestamp() AS at FROM locked),
      created AS (
        INSERT INTO binding (id, stream_id, cluster_id, is_default, config, producer_config,
          consumer_config, generation, pending_creates, created_at, updated_at, status_updated_at)
        SELECT ${id}::uuid, stamped.id, ${read.cluster.id}::uuid,
          NOT EXISTS (SELECT FROM binding b WHERE b.stream_id = stamped.id AND b.is_default),
          ${json(maps.config)}::jsonb, ${json(maps.producerConfig)}::jsonb,
          ${json(maps.consumerConfig)}::jsonb, 1, '[]'::jsonb, stamped.at, stamped.at, stamped.at
        FROM stamped
        RETURNING ${BINDING_SQL_COLUMNS}),
      queued AS (${jobInsertSql(BINDING_JOB, id, Prisma.sql`FROM created`)}),
      ${sealed ? Prisma.sql`sealed AS (${sealed}),` : Prisma.empty}
      logged AS (${logged})
      SELECT * FROM created`;
    return row ? { binding: toBinding(row) } : { stale: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Bound already, or another first binding became the default meanwhile.
    const [existing] = await open(db).$queryRaw<{ phase: Phase }[]>`
      SELECT phase::text AS phase FROM binding
      WHERE stream_id = ${read.stream.id}::uuid AND cluster_id = ${read.cluster.id}::uuid`;
    return existing ? { existing: existing.phase } : { stale: true };
  }
}

/**
 * Writes a change of a binding's desired state (new overrides, or a delete request): new
 * generation, the phase the state machine gives, a reconcile job and a change-log entry. Null,
 * writing nothing, if the binding changed since `binding` was read. A default binding asked to go
 * hands the default to its oldest live sibling at once, so that clients naming no cluster are
 * never sent to a cluster being torn down. The caller holds the stream's row lock (row-locks.ts).
 */
export async function changeBinding(
  tx: Tx,
  binding: Binding,
  event: "desired-changed" | "delete-requested",
  overrides: BindingOverrides,
  by: BindingWriter,
): Promise<Binding | null> {
  const deleting = event === "delete-requested";
  const sealed = deleting ? {} : await sealOverrides(tx, binding, overrides, by);
  const { written } = await writeBindingPhase(
    tx,
    { id: binding.id, generation: binding.generation },
    { from: binding.phase, event },
    {
      ...(sealed as PhaseWriteFields),
      generation: { increment: 1 },
      message: null,
      ...(deleting ? { isDefault: false } : {}),
    },
  );
  if (!written) return null;
  const updated = toBinding(
    await open(tx).binding.findUniqueOrThrow({ where: { id: binding.id }, select: BINDING_COLUMNS }),
  );
  await enqueueJob(tx, BINDING_JOB, binding.id);
  await recordChange(tx, {
    entityType: "binding",
    entityKey: formatFqn(by.namespace, by.cluster, by.stream),
    action: deleting ? "delete-requested" : "updated",
    generation: updated.generation,
    actor: by.actor,
    data: deleting ? {} : changeData(updated, by.secrets),
  });
  if (deleting) await promoteNextDefault(tx, binding.streamId, by);
  return updated;
}

/**
 * The overrides as stored: the sets given, with the sets not given as `binding` holds them, sealed
 * together under the binding's data key (placeholders kept keep their sealed values).
 */
async function sealOverrides(
  tx: Tx,
  binding: Binding,
  overrides: BindingOverrides,
  by: BindingWriter,
): Promise<BindingOverrides> {
  const sets = {
    config: overrides.config ?? binding.config,
    producerConfig: overrides.producerConfig ?? binding.producerConfig,
    consumerConfig: overrides.consumerConfig ?? binding.consumerConfig,
  };
  const fqn = formatFqn(by.namespace, by.cluster, by.stream);
  const shown = await sealUpdate(
    tx,
    { kind: "binding", id: binding.id },
    sets,
    by,
    `binding ${JSON.stringify(fqn)}`,
  );
  return Object.fromEntries(Object.keys(overrides).map((set) => [set, shown[set as keyof typeof shown]]));
}

/**
 * Gives the default to the oldest live binding if no live binding has it. Decided on the rows as
 * they are (the stream's bindings take turns under its row lock), not on `binding` as read before.
 */
async function promoteNextDefault(tx: Tx, streamId: string, by: BindingWriter): Promise<void> {
  const live = { streamId, phase: { not: Phase.DELETING } };
  if (await open(tx).binding.findFirst({ where: { ...live, isDefault: true }, select: { id: true } })) return;
  const next = await open(tx).binding.findFirst({
    where: live,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { cluster: { select: { name: true } } },
  });
  if (!next) return;
  await open(tx).binding.update({ where: { id: next.id }, data: { isDefault: true } });
  await recordChange(tx, {
    entityType: "binding",
    entityKey: formatFqn(by.namespace, next.cluster.name, by.stream),
    action: "became-default",
    generation: next.generation,
    actor: by.actor,
  });
}

function changeData(
  binding: Pick<Binding, "config" | "producerConfig" | "consumerConfig">,
  secrets: SecretKeyRule,
) {
  return {
    config: redactSecrets(binding.config, secrets),
    producerConfig: redactSecrets(binding.producerConfig, secrets),
    consumerConfig: redactSecrets(binding.consumerConfig, secrets),
  };
}

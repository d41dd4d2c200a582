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
import { enqueueJob, jobInsertSql } from "./job-queue.ts";
import type { Tx } from "./transaction.ts";

/** Who writes, the binding's names for its change-log key, and which keys are secret. */
export interface BindingWriter {
  actor: string;
  secrets: SecretKeyRule;
  namespace: string;
  stream: string;
  cluster: string;
}

/** A binding's three sets of override maps. */
export type BindingOverrides = Partial<Record<"config" | "producerConfig" | "consumerConfig", ConfigMaps>>;

/** The siblings of a new binding: whether one is on the cluster already, and whether one is the default. */
export async function findBindingsOfStream(tx: Tx, streamId: string) {
  return tx.binding.findMany({
    where: { streamId },
    select: { clusterId: true, phase: true, isDefault: true },
  });
}

/**
 * A new binding with its reconcile job and change-log entry, in one statement. `isDefault` is the
 * caller's rule (the first live binding of a stream is its default).
 */
export async function createBinding(
  tx: Tx,
  ids: { streamId: string; clusterId: string; isDefault: boolean },
  overrides: BindingOverrides,
  by: BindingWriter,
): Promise<Binding> {
  const maps = {
    config: overrides.config ?? {},
    producerConfig: overrides.producerConfig ?? {},
    consumerConfig: overrides.consumerConfig ?? {},
  };
  const json = (value: ConfigMaps) => JSON.stringify(value);
  const id = randomUUID();
  // The registry's clock, as for rows Prisma writes; now() would be when the transaction began,
  // before it waited for the stream's lock, and bindings are listed by creation.
  const now = new Date();
  const logged = changeInsertSql({
    entityType: "binding",
    entityKey: formatFqn(by.namespace, by.cluster, by.stream),
    action: "created",
    generation: 1,
    actor: by.actor,
    data: changeData(maps, by.secrets),
  });
  // pending_creates []: nothing sent yet (the create journal, apps/registry/src/reconciler/create-journal.ts).
  const [row] = await tx.$queryRaw<BindingRow[]>`
    WITH created AS (
      INSERT INTO binding (id, stream_id, cluster_id, is_default, config, producer_config,
        consumer_config, generation, pending_creates, created_at, updated_at, status_updated_at)
      VALUES (${id}::uuid, ${ids.streamId}::uuid, ${ids.clusterId}::uuid, ${ids.isDefault},
        ${json(maps.config)}::jsonb, ${json(maps.producerConfig)}::jsonb, ${json(maps.consumerConfig)}::jsonb,
        1, '[]'::jsonb, ${now}, ${now}, ${now})
      RETURNING ${BINDING_SQL_COLUMNS}),
    queued AS (${jobInsertSql(BINDING_JOB, id)}),
    logged AS (${logged})
    SELECT * FROM created`;
  return toBinding(row!);
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
  const { written } = await writeBindingPhase(
    tx,
    { id: binding.id, generation: binding.generation },
    { from: binding.phase, event },
    {
      ...(overrides as PhaseWriteFields),
      generation: { increment: 1 },
      message: null,
      ...(deleting ? { isDefault: false } : {}),
    },
  );
  if (!written) return null;
  const updated = toBinding(
    await tx.binding.findUniqueOrThrow({ where: { id: binding.id }, select: BINDING_COLUMNS }),
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
 * Gives the default to the oldest live binding if no live binding has it. Decided on the rows as
 * they are (the stream's bindings take turns under its row lock), not on `binding` as read before.
 */
async function promoteNextDefault(tx: Tx, streamId: string, by: BindingWriter): Promise<void> {
  const live = { streamId, phase: { not: Phase.DELETING } };
  if (await tx.binding.findFirst({ where: { ...live, isDefault: true }, select: { id: true } })) return;
  const next = await tx.binding.findFirst({
    where: live,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { cluster: { select: { name: true } } },
  });
  if (!next) return;
  await tx.binding.update({ where: { id: next.id }, data: { isDefault: true } });
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

import { formatFqn, Phase, type SecretKeyRule } from "@stream-registry/core";
import {
  BINDING_JOB,
  enqueueJob,
  recordChange,
  writeBindingPhase,
  type Binding,
  type PhaseWriteFields,
  type Tx,
} from "@stream-registry/store";
import { StaleRead } from "./optimistic.ts";
import { configSetData } from "./change-data.ts";

/**
 * Writes a change of a binding's desired state (new overrides, or a delete request): new
 * generation, the phase the state machine gives, a reconcile job and a change-log entry. Guarded
 * by the generation the caller read: if the binding changed meanwhile, the caller starts over.
 * A default binding asked to go hands the default to its oldest live sibling at once, so that
 * clients naming no cluster are never sent to a cluster being torn down.
 */
export async function changeBinding(
  tx: Tx,
  binding: Binding,
  event: "desired-changed" | "delete-requested",
  data: Partial<Pick<Binding, "config" | "producerConfig" | "consumerConfig">>,
  actor: string,
  names: { namespace: string; stream: string; cluster: string; secrets: SecretKeyRule },
): Promise<Binding> {
  const deleting = event === "delete-requested";
  const { written } = await writeBindingPhase(
    tx,
    { id: binding.id, generation: binding.generation },
    { from: binding.phase, event },
    {
      ...(data as PhaseWriteFields),
      generation: { increment: 1 },
      message: null,
      ...(deleting ? { isDefault: false } : {}),
    },
  );
  if (!written) throw new StaleRead();
  const updated = await tx.binding.findUniqueOrThrow({ where: { id: binding.id } });
  await enqueueJob(tx, BINDING_JOB, binding.id);
  await recordChange(tx, {
    entityType: "binding",
    entityKey: formatFqn(names.namespace, names.cluster, names.stream),
    action: deleting ? "delete-requested" : "updated",
    generation: updated.generation,
    actor,
    data: deleting ? {} : configSetData(updated, names.secrets),
  });
  if (deleting && binding.isDefault) await promoteNextDefault(tx, binding.streamId, actor, names);
  return updated;
}

async function promoteNextDefault(
  tx: Tx,
  streamId: string,
  actor: string,
  names: { namespace: string; stream: string },
) {
  const next = await tx.binding.findFirst({
    where: { streamId, phase: { not: Phase.DELETING } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { cluster: { select: { name: true } } },
  });
  if (!next) return;
  await tx.binding.update({ where: { id: next.id }, data: { isDefault: true } });
  await recordChange(tx, {
    entityType: "binding",
    entityKey: formatFqn(names.namespace, next.cluster.name, names.stream),
    action: "became-default",
    generation: next.generation,
    actor,
  });
}

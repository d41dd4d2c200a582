import { formatFqn, nextPhase, Phase } from "@stream-registry/core";
import { enqueueJob, recordChange, type Binding, type Tx } from "@stream-registry/store";
import { BINDING_JOB } from "./deps.ts";

/**
 * Gives every live binding matching `where` a new generation and a reconcile job, because what
 * it realizes changed (its stream's maps, or its cluster's connection).
 */
export async function touchBindings(
  tx: Tx,
  namespace: string,
  where: { streamId?: string; clusterId?: string },
  actor: string,
): Promise<void> {
  const bindings = await tx.binding.findMany({
    where: { ...where, phase: { not: Phase.DELETING } },
    include: { stream: { select: { name: true } }, cluster: { select: { name: true } } },
  });
  for (const binding of bindings) {
    await changeBinding(
      tx,
      binding,
      "desired-changed",
      {},
      actor,
      formatFqn(namespace, binding.cluster.name, binding.stream.name),
    );
  }
}

/**
 * Writes a change of a binding's desired state (new overrides, or a delete request): new
 * generation, the phase the state machine gives, a reconcile job and a change-log entry.
 */
export async function changeBinding(
  tx: Tx,
  binding: Binding,
  event: "desired-changed" | "delete-requested",
  data: Partial<Pick<Binding, "config" | "producerConfig" | "consumerConfig">>,
  actor: string,
  fqn: string,
): Promise<Binding> {
  const updated = await tx.binding.update({
    where: { id: binding.id },
    data: {
      ...(data as object),
      generation: { increment: 1 },
      phase: nextPhase(binding.phase as Phase, event),
      message: null,
      statusUpdatedAt: new Date(),
    },
  });
  await enqueueJob(tx, BINDING_JOB, binding.id);
  await recordChange(tx, {
    entityType: "binding",
    entityKey: fqn,
    action: event === "delete-requested" ? "delete-requested" : "updated",
    generation: updated.generation,
    actor,
  });
  return updated;
}

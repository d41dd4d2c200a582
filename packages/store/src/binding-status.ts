import { Phase } from "@stream-registry/core";
import { writeBindingPhase } from "./binding-phase.ts";
import { recordBindingStatus, recordChange } from "./change-log.ts";
import { toCluster } from "./clusters.ts";
import type { Db } from "./db.ts";
import type { Binding } from "./generated/prisma/client.ts";
import { saveObservation, type ObservationReport } from "./observations.ts";
import { removeStreamIfDone, toStream } from "./streams.ts";
import type { Tx } from "./transaction.ts";

/** What the reconciler reads of a binding: its desired state, with its stream's and its cluster's. */
export async function findBindingToReconcile(db: Db, id: string) {
  const row = await db.binding.findUnique({ where: { id }, include: { stream: true, cluster: true } });
  return row && { ...row, stream: toStream(row.stream), cluster: toCluster(row.cluster) };
}

/** A binding being deleted is gone from its platform: the row goes, and its stream if that was the last. */
export async function removeDeletedBinding(tx: Tx, binding: Binding, fqn: string): Promise<void> {
  const removed = await tx.binding.deleteMany({ where: { id: binding.id, phase: Phase.DELETING } });
  if (removed.count === 0) return;
  await recordChange(tx, {
    entityType: "binding",
    entityKey: fqn,
    action: "deleted",
    generation: binding.generation,
    actor: "reconciler",
  });
  await removeStreamIfDone(tx, binding.streamId, "reconciler");
}

/**
 * The generation read as `binding` was realized. Only it may turn ONLINE: a newer desired state,
 * or a delete that arrived meanwhile, has its own job and is not overwritten, yet records that
 * this generation was realized, so that the next attempt updates rather than creates.
 */
export async function recordRealized(
  tx: Tx,
  binding: Binding,
  observation: ObservationReport | undefined,
  fqn: string,
): Promise<void> {
  const { phase, written } = await writeBindingPhase(
    tx,
    { id: binding.id, generation: binding.generation, phase: { not: Phase.DELETING } },
    { from: binding.phase, event: "realized" },
    { observedGeneration: binding.generation, pendingCreates: [], message: observation?.message ?? null },
  );
  if (observation) await saveObservation(tx, binding.id, observation);
  if (!written) {
    await tx.binding.updateMany({
      where: {
        id: binding.id,
        OR: [{ observedGeneration: null }, { observedGeneration: { lt: binding.generation } }],
      },
      data: { observedGeneration: binding.generation, pendingCreates: [] },
    });
  } else if (binding.phase !== phase) {
    await recordBindingStatus(tx, fqn, binding.generation, { phase });
  }
}

/**
 * A failed attempt on the generation the attempt read (none read: the latest). `final` makes the
 * binding FAILED (never one being deleted: a deletion is never abandoned); otherwise only the
 * message changes while a retry is pending. "retry" if the binding is gone or moved on.
 */
export async function recordFailure(
  tx: Tx,
  attempt: { bindingId: string; generation?: number | undefined },
  failure: { message: string; retryMessage: string; permanent: boolean },
  fqnOf: (names: { cluster: string; stream: string }) => string,
): Promise<"failed" | "retry"> {
  const binding = await tx.binding.findUnique({
    where: { id: attempt.bindingId },
    include: { stream: { select: { name: true } }, cluster: { select: { name: true } } },
  });
  if (!binding || (attempt.generation !== undefined && binding.generation !== attempt.generation)) {
    return "retry";
  }
  const current = binding.phase;
  const final = failure.permanent && current !== Phase.DELETING;
  const message = final ? failure.message : failure.retryMessage;
  if (!final) {
    await tx.binding.update({ where: { id: binding.id }, data: { message, statusUpdatedAt: new Date() } });
    return "retry";
  }
  const { phase } = await writeBindingPhase(
    tx,
    { id: binding.id },
    { from: current, event: "failed" },
    { message },
  );
  if (phase !== current) {
    const fqn = fqnOf({ cluster: binding.cluster.name, stream: binding.stream.name });
    await recordBindingStatus(tx, fqn, binding.generation, { phase, message });
  }
  return "failed";
}

import { Phase, type Cluster } from "@stream-registry/core";
import { writeBindingPhase } from "./binding-phase.ts";
import { BINDING_JOB } from "./bindings.ts";
import { recordBindingStatus } from "./change-log.ts";
import { toCluster } from "./clusters.ts";
import type { Db } from "./db.ts";
import { enqueueJob } from "./job-queue.ts";
import { deleteObservation } from "./observations.ts";
import type { Tx } from "./transaction.ts";

/** An ONLINE binding to observe again, with what its provider needs to find it. */
export interface BindingToObserve {
  id: string;
  generation: number;
  stream: { name: string };
  cluster: Cluster;
}

/**
 * ONLINE bindings not observed since `before` (or never), in id order after `after`, at most
 * `limit`; bindings on clusters of `skipProvider` are left out (their observation never changes).
 */
export async function findBindingsToObserve(
  db: Db,
  query: { before: Date; after: string | undefined; limit: number; skipProvider: string },
): Promise<BindingToObserve[]> {
  const rows = await db.binding.findMany({
    where: {
      phase: Phase.ONLINE,
      cluster: { provider: { not: query.skipProvider } },
      OR: [{ observation: null }, { observation: { observedAt: { lt: query.before } } }],
      ...(query.after ? { id: { gt: query.after } } : {}),
    },
    select: { id: true, generation: true, stream: { select: { name: true } }, cluster: true },
    orderBy: { id: "asc" },
    take: query.limit,
  });
  return rows.map((row) => ({ ...row, cluster: toCluster(row.cluster) }));
}

/**
 * The binding's resource is gone from the platform: back to PENDING (core's "vanished"), its
 * observation forgotten and `observedGeneration` cleared (nothing is realized any more, so the
 * reconciler creates rather than updates), a reconcile job and a status entry in the change log.
 * The generation stays: the desired state did not change. False if the binding moved on meanwhile.
 */
export async function markBindingVanished(
  tx: Tx,
  binding: { id: string; generation: number },
  fqn: string,
  message: string,
): Promise<boolean> {
  const { phase, written } = await writeBindingPhase(
    tx,
    { id: binding.id, generation: binding.generation, phase: Phase.ONLINE },
    { from: Phase.ONLINE, event: "vanished" },
    { observedGeneration: null, message },
  );
  if (!written) return false;
  await deleteObservation(tx, binding.id);
  await enqueueJob(tx, BINDING_JOB, binding.id);
  await recordBindingStatus(tx, fqn, binding.generation, { phase, message });
  return true;
}

import { Phase, type ResourceStatus } from "@stream-registry/core";
import {
  recordResourceRealized,
  removeDeletedResource,
  writeTransaction,
  type DbClient,
  type JobLease,
} from "@stream-registry/store";
import { createThroughJournal, mayHaveMadeResource, SupersededAttempt } from "./create-journal.ts";
import type { ReconcileHandler } from "./handler.ts";

/** What one reconcile attempt came to. */
export type Outcome =
  | "gone"
  | "deleted"
  /** The desired state moved before anything was sent; the newer state has its own job. */
  | "superseded"
  | "realized";

/** What an attempt read: a failure is recorded against that generation, not a newer one. */
export interface Attempt {
  id: string;
  /** Set once the resource is read. */
  read?: { generation: number; name: string };
}

/**
 * Brings one resource to its desired state through its handler. Level-triggered: it reads the
 * latest desired state (or takes `read`, the resource as just read for this job), so a retry or a
 * duplicate request is harmless. "realized" has finished the job with the status it wrote. Errors
 * propagate to the reconciler, which decides between a retry and FAILED.
 */
export async function reconcileOnce<R extends ResourceStatus>(
  prisma: DbClient,
  handler: ReconcileHandler<R>,
  attempt: Attempt,
  signal: AbortSignal,
  read: R | null | undefined,
  lease: JobLease,
): Promise<Outcome> {
  const r = read === undefined ? await handler.load(attempt.id) : read;
  if (!r) return "gone";
  const name = handler.name(r);
  attempt.read = { generation: r.generation, name };
  const context = { signal };

  if (r.phase === Phase.DELETING) {
    if (await mayHaveMadeResource(prisma, handler, r, context)) await handler.remove(r, context);
    await forgetRemoved(prisma, handler, r, name);
    return "deleted";
  }

  let realized;
  try {
    realized =
      r.observedGeneration !== null
        ? await handler.update(r, context)
        : handler.journaled(r)
          ? await createThroughJournal(prisma, handler, r, context)
          : await handler.create(r, handler.createRequest(r), context);
  } catch (error) {
    if (error instanceof SupersededAttempt) return "superseded";
    throw error;
  }
  // Only the generation read may turn ONLINE: a newer desired state, or a delete that arrived
  // meanwhile, has its own job and is not overwritten.
  await recordResourceRealized(prisma, handler.resource, r, name, realized ?? undefined, lease);
  return "realized";
}

/** A resource being deleted is gone from its platform: its row goes, and what goes with it (`removed`). */
export async function forgetRemoved<R extends ResourceStatus>(
  prisma: DbClient,
  handler: ReconcileHandler<R>,
  r: R,
  name: string,
): Promise<void> {
  await writeTransaction(prisma, async (tx) => {
    if (await removeDeletedResource(tx, handler.resource, r, name)) await handler.removed?.(tx, r);
  });
}

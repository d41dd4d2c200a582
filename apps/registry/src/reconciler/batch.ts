import { Phase, type ResourceStatus } from "@stream-registry/core";
import { isResourceConflictError } from "@stream-registry/provider-api";
import {
  appendPendingCreate,
  forgetPendingCreates,
  recordResourceRealized,
  type LeasedJob,
  type DbClient,
} from "@stream-registry/store";
import { forEachConcurrently } from "../periodic.ts";
import { forgetRemoved, type Attempt, type Outcome } from "./attempt.ts";
import { surelyMade } from "./create-journal.ts";
import type { CreateRequest, ReconcileHandler } from "./handler.ts";

/** Status writes of one batch at once: a few, so that API requests still find a free connection. */
const STATUS_WRITERS = 4;

/** What one job of a batch came to: an outcome, or the error its attempt failed with. */
export type BatchResult = { job: LeasedJob; attempt: Attempt } & ({ outcome: Outcome } | { error: unknown });

interface Item<R> {
  job: LeasedJob;
  r: R;
  attempt: Attempt;
  request: CreateRequest;
}

/** A job the batch left to the one-by-one path, with the resource as the batch read it (if it could). */
export interface LeftJob<R> {
  job: LeasedJob;
  r?: R | null;
}

/** A handler the kernel batches for: it has a batch key and `createMany`, `removeMany` or both. */
export type BatchingHandler<R extends ResourceStatus> = ReconcileHandler<R> &
  Required<Pick<ReconcileHandler<R>, "batchKey">>;

/**
 * Realizes with one `createMany` call per batch key the resources of `jobs` that only need their
 * first create (nothing older in their journal to adopt), journaling each request first as a
 * single create would; and removes with one `removeMany` call per batch key those being deleted
 * that surely were made. Hands back the other jobs (updates, adoptions, deletes that ask the
 * journal, gone resources, failed reads), which take the one-by-one path, each with what was
 * read of it.
 */
export async function realizeBatch<R extends ResourceStatus>(
  prisma: DbClient,
  handler: BatchingHandler<R>,
  jobs: readonly LeasedJob[],
  signal: AbortSignal,
  worker: string,
): Promise<{ results: BatchResult[]; rest: LeftJob<R>[] }> {
  const loaded = await loadAll(handler, jobs);
  const rest: LeftJob<R>[] = [];
  const creates = new Map<string, { job: LeasedJob; r: R }[]>();
  const removes = new Map<string, { job: LeasedJob; r: R }[]>();
  for (const { job, r } of loaded) {
    const groups = !r
      ? undefined
      : handler.createMany && firstCreate(handler, r)
        ? creates
        : handler.removeMany && r.phase === Phase.DELETING && surelyMade(r)
          ? removes
          : undefined;
    if (!r || !groups) {
      rest.push({ job, r });
      continue;
    }
    const key = handler.batchKey(r);
    groups.set(key, [...(groups.get(key) ?? []), { job, r }]);
  }
  // A group that fails as a whole (its database writes) fails its own jobs, not the others'.
  const failed = (group: { job: LeasedJob; r: R }[]) => (error: unknown) =>
    group.map(({ job, r }) => ({
      job,
      attempt: { id: r.id, read: { generation: r.generation, name: handler.name(r) } },
      error,
    }));
  const results = await Promise.all([
    ...[...creates.values()].map((group) =>
      createGroup(prisma, handler, group, signal, worker).catch(failed(group)),
    ),
    ...[...removes.values()].map((group) => removeGroup(prisma, handler, group, signal).catch(failed(group))),
  ]);
  return { results: results.flat(), rest };
}

/**
 * Each job with its resource: null once its row is gone, undefined if it could not be read (its
 * one-by-one attempt reads it again). One read for all of them where the handler can.
 */
async function loadAll<R extends ResourceStatus>(
  handler: ReconcileHandler<R>,
  jobs: readonly LeasedJob[],
): Promise<{ job: LeasedJob; r: R | null | undefined }[]> {
  if (!handler.loadMany) {
    return Promise.all(
      jobs.map(async (job) => ({ job, r: await handler.load(job.targetId).catch(() => undefined) })),
    );
  }
  const found = await handler.loadMany(jobs.map((job) => job.targetId)).catch(() => undefined);
  const byId = found && new Map(found.map((r) => [r.id, r]));
  return jobs.map((job) => ({ job, r: byId ? (byId.get(job.targetId) ?? null) : undefined }));
}

/** Never realized, journaled, and nothing in its journal but (perhaps) this generation's create. */
function firstCreate<R extends ResourceStatus>(handler: ReconcileHandler<R>, r: R): boolean {
  return (
    r.phase !== Phase.DELETING &&
    r.observedGeneration === null &&
    handler.journaled(r) &&
    r.pendingCreates !== null &&
    r.pendingCreates.every((entry) => entry.generation === r.generation)
  );
}

async function createGroup<R extends ResourceStatus>(
  prisma: DbClient,
  handler: BatchingHandler<R>,
  group: { job: LeasedJob; r: R }[],
  signal: AbortSignal,
  worker: string,
): Promise<BatchResult[]> {
  const results: BatchResult[] = [];
  const items: Item<R>[] = [];
  for (const { job, r } of group) {
    const attempt: Attempt = { id: r.id, read: { generation: r.generation, name: handler.name(r) } };
    const request = handler.createRequest(r);
    const journaled = r.pendingCreates!.length > 0;
    if (
      !journaled &&
      !(await appendPendingCreate(prisma, handler.resource, r, { generation: r.generation, request }))
    ) {
      results.push({ job, attempt, outcome: "superseded" });
      continue;
    }
    items.push({ job, r, attempt, request });
  }
  if (items.length === 0) return results;
  let outcomes;
  try {
    outcomes = await handler.createMany!(items, { signal });
  } catch (error) {
    return [...results, ...items.map(({ job, attempt }) => ({ job, attempt, error }))];
  }
  const realized: { item: Item<R>; observation: Awaited<typeof outcomes>[number] & { ok: true } }[] = [];
  for (const [index, item] of items.entries()) {
    const outcome = outcomes[index] ?? { ok: false, error: new Error("createMany gave no outcome for it") };
    if (outcome.ok) {
      realized.push({ item, observation: outcome });
      continue;
    }
    // Refused as conflicting: it made nothing, so it leaves the journal (as a single create's does).
    if (isResourceConflictError(outcome.error)) {
      await forgetPendingCreates(prisma, handler.resource, item.r.id, [item.r.generation]);
    }
    results.push({ job: item.job, attempt: item.attempt, error: outcome.error });
  }
  // Each its own statement (status, observation, change-log entry and the job's completion at
  // once): one that cannot be written fails only its own job, which is retried.
  await forEachConcurrently(realized, STATUS_WRITERS, async ({ item, observation }) => {
    const { job, attempt, r } = item;
    try {
      await recordResourceRealized(
        prisma,
        handler.resource,
        r,
        attempt.read!.name,
        observation.value ?? undefined,
        { job, worker },
      );
      results.push({ job, attempt, outcome: "realized" });
    } catch (error) {
      results.push({ job, attempt, error });
    }
  });
  return results;
}

/** Removes the group with one `removeMany` call; each removed one's row then goes on its own. */
async function removeGroup<R extends ResourceStatus>(
  prisma: DbClient,
  handler: BatchingHandler<R>,
  group: { job: LeasedJob; r: R }[],
  signal: AbortSignal,
): Promise<BatchResult[]> {
  const items = group.map(({ job, r }) => ({
    job,
    r,
    attempt: { id: r.id, read: { generation: r.generation, name: handler.name(r) } },
  }));
  let outcomes;
  try {
    outcomes = await handler.removeMany!(
      items.map(({ r }) => r),
      { signal },
    );
  } catch (error) {
    return items.map(({ job, attempt }) => ({ job, attempt, error }));
  }
  const results: BatchResult[] = [];
  const settled = items.map((item, index) => ({
    ...item,
    outcome: outcomes[index] ?? { ok: false, error: new Error("removeMany gave no outcome for it") },
  }));
  await forEachConcurrently(settled, STATUS_WRITERS, async ({ job, r, attempt, outcome }) => {
    try {
      if (!outcome.ok) throw outcome.error;
      await forgetRemoved(prisma, handler, r, attempt.read.name);
      results.push({ job, attempt, outcome: "deleted" });
    } catch (error) {
      results.push({ job, attempt, error });
    }
  });
  return results;
}

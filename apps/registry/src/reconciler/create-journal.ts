import type { PendingCreate, ResourceStatus } from "@stream-registry/core";
import { isResourceConflictError } from "@stream-registry/provider-api";
import {
  adoptPendingCreate,
  appendPendingCreate,
  forgetPendingCreates,
  type ObservationReport,
  type DbClient,
} from "@stream-registry/store";
import type { HandlerContext, ReconcileHandler } from "./handler.ts";

/** The desired state moved on while this attempt ran: the newer state has its own job. */
export class SupersededAttempt extends Error {
  constructor(generation: number) {
    super(`generation ${generation} was superseded before its create was sent`);
    this.name = "SupersededAttempt";
  }
}

/**
 * Creates a resource that has never been realized, journaling the request first. If a crash or a
 * timeout hid whether an older generation's create was carried out, and the resource exists, it
 * is adopted as the newest journaled generation the provider accepts it for (a provider adopts
 * only what matches the request), that generation is recorded as realized, and the resource is
 * updated to the current desired state. A resource no journaled create accounts for is treated
 * like any existing one. A create refused with ResourceConflictError made nothing: it leaves the
 * journal, as does an older one the existing resource does not match.
 */
export async function createThroughJournal<R extends ResourceStatus>(
  prisma: DbClient,
  handler: ReconcileHandler<R>,
  r: R,
  context: HandlerContext,
): Promise<ObservationReport | void> {
  const journal = r.pendingCreates;
  const older = (journal ?? []).filter((entry) => entry.generation !== r.generation).reverse();
  const adoptOlder = async (): Promise<boolean> => {
    const adopted = await adoptedEntry(prisma, handler, r, older, context);
    if (adopted === undefined) return false;
    await adoptPendingCreate(prisma, handler.resource, r.id, adopted.generation);
    return true;
  };

  if (older.length > 0 && (await handler.observe(r, context)) !== null) {
    if (await adoptOlder()) return handler.update(r, context);
  }
  const request = handler.createRequest(r);
  if (!journal?.some((entry) => entry.generation === r.generation)) {
    const entry = { generation: r.generation, request };
    if (!(await appendPendingCreate(prisma, handler.resource, r, entry))) {
      throw new SupersededAttempt(r.generation);
    }
  }
  try {
    return await handler.create(r, request, context);
  } catch (error) {
    if (!isResourceConflictError(error)) throw error;
    // An older create may have landed after the look above (a controller applying a timed-out request).
    if (older.length > 0 && (await adoptOlder())) return handler.update(r, context);
    await forgetPendingCreates(prisma, handler.resource, r.id, [r.generation]);
    throw error;
  }
}

/** Realized once, or with no journal to tell: deleting it must reach the platform, no question asked. */
export function surelyMade(r: ResourceStatus): boolean {
  return r.observedGeneration !== null || r.pendingCreates === null;
}

/**
 * Whether deleting a resource must reach the platform: yes once it was realized or when its journal
 * is unknown; otherwise only if it exists there and is what one of its journaled creates made.
 * A resource of that name that no create of the registry's accounts for belongs to someone else.
 */
export async function mayHaveMadeResource<R extends ResourceStatus>(
  prisma: DbClient,
  handler: ReconcileHandler<R>,
  r: R,
  context: HandlerContext,
): Promise<boolean> {
  if (surelyMade(r)) return true;
  const journal = r.pendingCreates ?? [];
  if (journal.length === 0) return false;
  if ((await handler.observe(r, context)) === null) return false;
  return (await adoptedEntry(prisma, handler, r, [...journal].reverse(), context)) !== undefined;
}

/**
 * The first of `entries` whose create the provider accepts for the existing resource (adopting
 * it). Entries it refuses as conflicting leave the journal: the resource is not what they would
 * have made, and never will be.
 */
async function adoptedEntry<R extends ResourceStatus>(
  prisma: DbClient,
  handler: ReconcileHandler<R>,
  r: R,
  entries: PendingCreate[],
  context: HandlerContext,
): Promise<PendingCreate | undefined> {
  const conflicting: number[] = [];
  try {
    for (const entry of entries) {
      try {
        await handler.create(r, entry.request, context);
        return entry;
      } catch (error) {
        if (!isResourceConflictError(error)) throw error;
        conflicting.push(entry.generation);
      }
    }
    return undefined;
  } finally {
    if (conflicting.length > 0) await forgetPendingCreates(prisma, handler.resource, r.id, conflicting);
  }
}

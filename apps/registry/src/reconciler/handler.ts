import type { ResourceStatus } from "@stream-registry/core";
import type { BatchOutcome } from "@stream-registry/provider-api";
import type { ObservationReport, ResourceTable, Tx } from "@stream-registry/store";

/** What every handler call may use besides the resource: aborted at shutdown or a deadline. */
export interface HandlerContext {
  signal: AbortSignal;
}

/** The part of a resource's desired state that a create sends; kept in its create journal. */
export type CreateRequest = Record<string, unknown>;

/**
 * One kind of realized resource, as the reconcile kernel sees it. The kernel owns everything
 * else: leases, retries with backoff, the create journal, superseded generations, deletes that are
 * never abandoned, status writes, observations and the resync. Provider errors thrown by these
 * methods decide between a retry and FAILED (provider-api's `isPermanentProviderError`); any other
 * error (a provider not loaded, an outage) is retried.
 */
export interface ReconcileHandler<R extends ResourceStatus = ResourceStatus> {
  /** Its table and job kind. */
  readonly resource: ResourceTable;
  /** The resource with its desired state and status block; null once its row is gone. */
  load(id: string): Promise<R | null>;
  /** Optional: the resources of `ids` that still exist, read at once (a batch's jobs). */
  loadMany?(ids: readonly string[]): Promise<R[]>;
  /** How logs and the change log name it (a binding: its FQN). */
  name(r: R): string;
  /** Where it is realized, for messages: e.g. `cluster "c1"`. */
  location(r: R): string;
  /**
   * Whether its creates go through the create journal: true wherever a create may leave something
   * on a platform whose outcome can be lost; false for a provider that realizes nothing.
   */
  journaled(r: R): boolean;
  /** What a create of its current desired state sends. */
  createRequest(r: R): CreateRequest;
  /**
   * Creates it from `request` (the current one, or an older journaled one when adopting what a
   * lost create made). Adopting an existing resource that matches is success; one that does not
   * match is refused with a ResourceConflictError, having made nothing.
   */
  create(r: R, request: CreateRequest, context: HandlerContext): Promise<ObservationReport | void>;
  /**
   * Optional: creates many never-realized resources with one provider call, each outcome (in
   * order) what `create` would have given it alone. The kernel then leases up to `batchSize` due
   * jobs of the kind at once and hands it the ones with the same `batchKey` (a binding's cluster).
   */
  createMany?(
    items: readonly { r: R; request: CreateRequest }[],
    context: HandlerContext,
  ): Promise<BatchOutcome<ObservationReport | void>[]>;
  /**
   * Optional: removes many resources being deleted with one provider call, each outcome (in order)
   * what `remove` would have given it alone. The kernel hands it those it knows were made (realized,
   * or with no journal); the others take the one-by-one path, which asks the journal first.
   */
  removeMany?(resources: readonly R[], context: HandlerContext): Promise<BatchOutcome<void>[]>;
  /** Which resources one `createMany` or `removeMany` call may take together. */
  batchKey?(r: R): string;
  /** Brings the existing resource to the current desired state. */
  update(r: R, context: HandlerContext): Promise<ObservationReport | void>;
  /** What the platform has now; null when the resource does not exist there. */
  observe(r: R, context: HandlerContext): Promise<ObservationReport | null>;
  /** Deletes it from the platform; deleting what is already gone is success. */
  remove(r: R, context: HandlerContext): Promise<void>;
  /** Runs in the transaction that removed the row of a deleted resource (a binding's stream may go with it). */
  removed?(tx: Tx, r: R): Promise<void>;
  /**
   * Live resources the resync should observe: ONLINE, not observed since `before`, in id order
   * after `after`, at most `limit`. Leave it out for a kind that is never resynced.
   */
  findToObserve?(query: { before: Date; after: string | undefined; limit: number }): Promise<R[]>;
}

/** The handlers a registry runs, by job kind. */
export type Handlers = ReadonlyMap<string, ReconcileHandler>;

export function handlersByKind(handlers: readonly ReconcileHandler[]): Handlers {
  const byKind = new Map<string, ReconcileHandler>();
  for (const handler of handlers) {
    if (byKind.has(handler.resource.kind)) {
      throw new Error(`two reconcile handlers for kind "${handler.resource.kind}"`);
    }
    byKind.set(handler.resource.kind, handler);
  }
  return byKind;
}

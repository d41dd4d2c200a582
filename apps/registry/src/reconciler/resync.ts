import { withDeadline, type ResourceStatus } from "@stream-registry/core";
import { markResourceVanished, saveResourceObservation, writeTransaction } from "@stream-registry/store";
import type { ReconcilerConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { forEachConcurrently, Periodic } from "../periodic.ts";
import type { ServiceDeps } from "../services/deps.ts";
import type { Handlers, ReconcileHandler } from "./handler.ts";

type ResyncDeps = Pick<ServiceDeps, "db" | "wakeReconciler">;

/** Resources read per query: a registry with many of them is resynced in bounded steps. */
const BATCH = 200;
/** One observation that takes longer is skipped until the next round. */
const OBSERVE_TIMEOUT_MS = 30_000;

/**
 * Level-triggered drift detection for every kind whose handler finds resources to observe: every
 * `resyncMs`, ONLINE resources not observed within the last interval are observed again. The
 * observation is stored (record counts and configs stay current); a resource that has vanished
 * from its platform goes back to PENDING, forgetting what was realized, and is reconciled, which
 * creates it again.
 */
export class Resync {
  private readonly periodic: Periodic;

  constructor(
    private readonly deps: ResyncDeps,
    private readonly handlers: Handlers,
    private readonly config: ReconcilerConfig,
    private readonly logger: Logger,
  ) {
    this.periodic = new Periodic(
      config.resyncMs,
      (signal) => this.resyncDue(signal),
      (error) => this.logger.error({ err: error }, "resync round failed"),
    );
  }

  start(): void {
    if (this.config.enabled) this.periodic.start();
  }

  stop(timeoutMs: number): Promise<void> {
    return this.periodic.stop(timeoutMs);
  }

  /** Observes every resource not observed within the last interval, kind by kind, in id order, batch by batch. */
  async resyncDue(signal: AbortSignal): Promise<void> {
    let vanished = 0;
    for (const handler of this.handlers.values()) vanished += await this.resyncKind(handler, signal);
    if (vanished > 0) this.deps.wakeReconciler();
  }

  private async resyncKind(handler: ReconcileHandler, signal: AbortSignal): Promise<number> {
    if (!handler.findToObserve) return 0;
    const before = new Date(Date.now() - this.config.resyncMs * 0.9);
    let after: string | undefined;
    let observed = 0;
    let vanished = 0;
    while (!signal.aborted) {
      const batch = await handler.findToObserve({ before, after, limit: BATCH });
      await forEachConcurrently(batch, this.config.resyncConcurrency, async (r) => {
        const result = await this.resyncOne(handler, r, signal);
        if (result === "observed") observed++;
        if (result === "vanished") vanished++;
      });
      if (batch.length < BATCH) break;
      after = batch.at(-1)!.id;
    }
    if (observed + vanished > 0) {
      this.logger.debug({ kind: handler.resource.kind, observed, vanished }, "resynced");
    }
    return vanished;
  }

  private async resyncOne(
    handler: ReconcileHandler,
    r: ResourceStatus,
    parent: AbortSignal,
  ): Promise<"observed" | "vanished" | "skipped"> {
    const name = handler.name(r);
    // What is seen is as of the start of the call: a reconcile that stores a newer view meanwhile wins.
    const startedAt = new Date();
    try {
      const observation = await withDeadline((signal) => handler.observe(r, { signal }), {
        timeoutMs: OBSERVE_TIMEOUT_MS,
        signal: parent,
      });
      const { prisma } = this.deps.db;
      if (observation) {
        await saveResourceObservation(prisma, handler.resource, r.id, observation, startedAt);
        return "observed";
      }
      const message = `missing on ${handler.location(r)} (found by resync); re-creating`;
      const marked = await writeTransaction(prisma, (tx) =>
        markResourceVanished(tx, handler.resource, r, name, message),
      );
      if (!marked) return "skipped";
      this.logger.warn({ kind: handler.resource.kind, name }, "resource vanished; re-creating it");
      return "vanished";
    } catch (error) {
      // An unreachable platform shows in its health; a resource deleted meanwhile has nothing to store.
      this.logger.debug({ err: error, kind: handler.resource.kind, name }, "resync skipped");
      return "skipped";
    }
  }
}

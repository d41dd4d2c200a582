import { formatFqn, withDeadline } from "@stream-registry/core";
import {
  findBindingsToObserve,
  markBindingVanished,
  saveObservation,
  writeTransaction,
  type BindingToObserve,
} from "@stream-registry/store";
import type { ReconcilerConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { forEachConcurrently, Periodic } from "../periodic.ts";
import { clusterTarget } from "../providers/cluster-target.ts";
import { registryOnlyProvider } from "../providers/registry-only.ts";
import type { ServiceDeps } from "../services/deps.ts";

type ResyncDeps = Pick<ServiceDeps, "db" | "providers" | "namespace" | "wakeReconciler">;

/** Bindings read per query: a registry with many bindings is resynced in bounded steps. */
const BATCH = 200;
/** One observation that takes longer is skipped until the next round. */
const OBSERVE_TIMEOUT_MS = 30_000;

/**
 * Level-triggered drift detection: every `resyncMs`, ONLINE bindings not observed within the last
 * interval are observed again through their provider. The observation is stored (record counts and
 * configs stay current); a binding whose resource has vanished from the platform goes back to
 * PENDING, forgetting what was realized, and is reconciled, which creates it again.
 */
export class BindingResync {
  private readonly periodic: Periodic;

  constructor(
    private readonly deps: ResyncDeps,
    private readonly config: ReconcilerConfig,
    private readonly logger: Logger,
  ) {
    this.periodic = new Periodic(
      config.resyncMs,
      (signal) => this.resyncDue(signal),
      (error) => this.logger.error({ err: error }, "binding resync round failed"),
    );
  }

  start(): void {
    if (this.config.enabled) this.periodic.start();
  }

  stop(timeoutMs: number): Promise<void> {
    return this.periodic.stop(timeoutMs);
  }

  /** Observes every ONLINE binding not observed within the last interval, in id order, batch by batch. */
  async resyncDue(signal: AbortSignal): Promise<void> {
    const { prisma } = this.deps.db;
    const dueBefore = new Date(Date.now() - this.config.resyncMs * 0.9);
    let after: string | undefined;
    let observed = 0;
    let vanished = 0;
    while (!signal.aborted) {
      const batch = await findBindingsToObserve(prisma, {
        before: dueBefore,
        after,
        limit: BATCH,
        // Metadata only: its observation never changes, and registries full of it would pay for nothing.
        skipProvider: registryOnlyProvider.kind,
      });
      await forEachConcurrently(batch, this.config.resyncConcurrency, async (binding) => {
        const result = await this.resyncOne(binding, signal);
        if (result === "observed") observed++;
        if (result === "vanished") vanished++;
      });
      if (batch.length < BATCH) break;
      after = batch.at(-1)!.id;
    }
    if (vanished > 0) this.deps.wakeReconciler();
    if (observed + vanished > 0) this.logger.debug({ observed, vanished }, "bindings resynced");
  }

  private async resyncOne(
    binding: BindingToObserve,
    parent: AbortSignal,
  ): Promise<"observed" | "vanished" | "skipped"> {
    const provider = this.deps.providers.get(binding.cluster.provider);
    if (!provider) return "skipped";
    const fqn = formatFqn(this.deps.namespace, binding.cluster.name, binding.stream.name);
    // What is seen is as of the start of the call: a reconcile that stores a newer view meanwhile wins.
    const startedAt = new Date();
    try {
      const observation = await withDeadline(
        (signal) =>
          provider.infrastructure.observeStreamBinding(
            binding.stream.name,
            clusterTarget(this.deps.namespace, binding.cluster),
            { signal },
          ),
        { timeoutMs: OBSERVE_TIMEOUT_MS, signal: parent },
      );
      if (observation) {
        await saveObservation(this.deps.db.prisma, binding.id, observation, startedAt);
        return "observed";
      }
      return (await this.markVanished(binding, fqn)) ? "vanished" : "skipped";
    } catch (error) {
      // An unreachable cluster shows in its health; a binding deleted meanwhile has nothing to store.
      this.logger.debug({ err: error, binding: fqn }, "binding resync skipped");
      return "skipped";
    }
  }

  /** The resource is gone: back to PENDING, to be created again. False if the binding moved on meanwhile. */
  private async markVanished(binding: BindingToObserve, fqn: string): Promise<boolean> {
    const message = `missing on cluster "${binding.cluster.name}" (found by resync); re-creating`;
    const marked = await writeTransaction(this.deps.db.prisma, (tx) =>
      markBindingVanished(tx, binding, fqn, message),
    );
    if (marked) this.logger.warn({ binding: fqn }, "binding's resource vanished; re-creating it");
    return marked;
  }
}

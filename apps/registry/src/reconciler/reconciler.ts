import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { retryDelayMs, type ResourceStatus } from "@stream-registry/core";
import { isPermanentProviderError } from "@stream-registry/provider-api";
import {
  completeJob,
  extendLease,
  leaseJobs,
  recordResourceFailure,
  releaseAllLeases,
  releaseJob,
  retryJob,
  writeTransaction,
  type LeasedJob,
} from "@stream-registry/store";
import type { ReconcilerConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { ServiceDeps } from "../services/deps.ts";
import { forEachConcurrently } from "../periodic.ts";
import { reconcileOnce, type Attempt, type Outcome } from "./attempt.ts";
import { realizeBatch, type LeftJob } from "./batch.ts";
import type { Handlers, ReconcileHandler } from "./handler.ts";

type ReconcilerDeps = Pick<ServiceDeps, "db">;

const maxLeaseBackoffMs = 30_000;

/**
 * Batches of one kind at a time. More would split what is due into many small batches, each paying
 * a provider round trip of its own (a CreateTopics and its leaders): with this bound, what becomes
 * due while batches run waits for the next one and goes in it, up to RECONCILER_BATCH_SIZE.
 */
const BATCHES_PER_KIND = 2;

/**
 * The reconcile kernel's job loop: leases due jobs, hands each to the handler of its kind, and
 * records the outcome. Jobs survive crashes (an expired lease makes them due again) and several
 * processes may share one database. A job of a kind no handler serves (one a newer registry
 * version sharing the database enqueued) is logged and retried with backoff, never dropped.
 */
export class Reconciler {
  readonly worker = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private wakeUp: (() => void) | undefined;
  private wakePending = false;
  private lastLeaseError: string | undefined;
  /** Lease attempts failed in a row (the database is away); they space out the next attempt. */
  private leaseFailures = 0;
  /** Batches running, by kind: a kind at BATCHES_PER_KIND is not leased by the loop meanwhile. */
  private readonly batchesInFlight = new Map<string, number>();

  constructor(
    private readonly deps: ReconcilerDeps,
    private readonly handlers: Handlers,
    private readonly config: ReconcilerConfig,
    private readonly logger: Logger,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running || !this.config.enabled) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Looks for due jobs now instead of at the next poll. */
  wake(): void {
    this.wakePending = true;
    this.wakeUp?.();
  }

  /** Stops leasing, lets in-flight reconciles finish for up to `timeoutMs`, then gives back all leases. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    // A lease query stuck on a dead connection must not hold up shutdown.
    await Promise.race([this.loopDone, sleep(timeoutMs)]);
    const drained = await Promise.race([
      Promise.allSettled([...this.inFlight]).then(() => true),
      sleep(timeoutMs).then(() => false),
    ]);
    if (!drained) {
      this.abort.abort(new Error("registry is shutting down"));
      await Promise.race([Promise.allSettled([...this.inFlight]), sleep(1_000)]);
    }
    const released = await releaseAllLeases(this.deps.db.prisma, this.worker).catch(() => 0);
    this.logger.info({ worker: this.worker, released, drained }, "reconciler stopped");
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.wakePending = false;
      const free = this.config.concurrency - this.inFlight.size;
      if (free > 0) {
        try {
          const notKinds = [...this.batchesInFlight]
            .filter(([, running]) => running >= BATCHES_PER_KIND)
            .map(([kind]) => kind);
          const jobs = await leaseJobs(this.deps.db.prisma, this.worker, free, this.config.leaseMs, {
            notKinds,
          });
          this.dispatch(jobs);
          if (this.leaseFailures > 0)
            this.logger.info({ failedAttempts: this.leaseFailures }, "reconciler leases jobs again");
          this.lastLeaseError = undefined;
          this.leaseFailures = 0;
        } catch (error) {
          this.leaseFailures += 1;
          // Once per distinct failure: a database that is away for an hour is one log line, not thousands.
          const message = (error as Error).message;
          if (message !== this.lastLeaseError)
            this.logger.error({ err: error }, "reconciler cannot lease jobs; retrying with backoff");
          this.lastLeaseError = message;
        }
      }
      // A wake-up that came while leasing must not wait for the next poll.
      if (this.wakePending) continue;
      const delayMs = this.nextPollMs();
      if (this.leaseFailures > 0)
        this.logger.debug({ failedAttempts: this.leaseFailures, delayMs }, "reconciler waits to lease again");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /**
   * The poll interval, or while leasing fails a randomized backoff from it up to 30 s, so a lost
   * database is not hammered. A wake-up (a mutation that committed) still looks at once.
   */
  private nextPollMs(): number {
    const { pollMs } = this.config;
    if (this.leaseFailures === 0) return pollMs;
    return retryDelayMs(this.leaseFailures, { baseMs: pollMs, maxMs: Math.max(pollMs, maxLeaseBackoffMs) });
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.wake();
    });
  }

  /**
   * Each job to the handler of its kind, one by one; the jobs of a kind whose handler creates or
   * removes many at once go together, with up to `batchSize` more of that kind leased for them.
   */
  private dispatch(jobs: readonly LeasedJob[]): void {
    const batches = new Map<ReconcileHandler, LeasedJob[]>();
    for (const job of jobs) {
      const handler = this.handlers.get(job.kind);
      if ((handler?.createMany || handler?.removeMany) && handler.batchKey && this.config.batchSize > 1) {
        batches.set(handler, [...(batches.get(handler) ?? []), job]);
      } else {
        this.track(this.handle(job));
      }
    }
    for (const [handler, leased] of batches) this.track(this.handleBatch(handler, leased));
  }

  private async handleBatch(handler: ReconcileHandler, leased: LeasedJob[]): Promise<void> {
    const { prisma } = this.deps.db;
    const { leaseMs, batchSize } = this.config;
    const kind = handler.resource.kind;
    this.batchesInFlight.set(kind, (this.batchesInFlight.get(kind) ?? 0) + 1);
    const more = await leaseJobs(prisma, this.worker, batchSize - leased.length, leaseMs, { kind }).catch(
      () => [],
    );
    const jobs = [...leased, ...more];
    for (const job of jobs) this.logger.debug(this.logFields(job), "reconcile started");
    const heartbeat = setInterval(
      () =>
        void Promise.all(jobs.map((job) => extendLease(prisma, job, this.worker, leaseMs))).catch(() => {}),
      leaseMs / 3,
    );
    try {
      const started = performance.now();
      const batching = handler as Parameters<typeof realizeBatch>[1];
      const { results, rest } = await realizeBatch(
        prisma,
        batching,
        jobs,
        this.abort.signal,
        this.worker,
      ).catch((error: unknown) => {
        // Nothing of the batch was recorded: each job is tried on its own instead.
        this.logger.warn(
          { kind, jobs: jobs.length, err: error },
          "batch failed; reconciling its jobs one by one",
        );
        return { results: [], rest: jobs.map((job): LeftJob<ResourceStatus> => ({ job })) };
      });
      if (results.length > 0) {
        this.logger.info({ kind, jobs: results.length, durationMs: elapsed(started) }, "batch realized");
      }
      await Promise.all(
        results.map((result) => {
          const log = this.logFields(result.job);
          return "outcome" in result
            ? this.complete(result.job, result.outcome, log, started)
            : this.settleFailure(result.job, handler, result.attempt, result.error, log, started);
        }),
      );
      // What the batch read of them is used, not read again: every write an attempt makes is
      // conditional on the generation it read, and a change since has its own job.
      await forEachConcurrently(rest, this.config.concurrency, ({ job, r }) => this.handle(job, true, r));
    } finally {
      clearInterval(heartbeat);
      this.batchesInFlight.set(kind, this.batchesInFlight.get(kind)! - 1);
    }
  }

  private logFields(job: LeasedJob) {
    return { job: String(job.id), kind: job.kind, target: job.targetId, attempt: job.attempts };
  }

  private async complete(job: LeasedJob, outcome: Outcome, log: object, started: number): Promise<void> {
    // "realized" finished its job with the status it wrote. If this write is lost, the lease
    // expires and the (idempotent) reconcile runs again.
    if (outcome !== "realized") {
      await completeJob(this.deps.db.prisma, job, this.worker).catch((error: unknown) =>
        this.logger.error({ ...log, err: error }, "reconcile done but its job could not be completed"),
      );
    }
    this.logger.info({ ...log, outcome, durationMs: elapsed(started) }, "reconcile");
  }

  /** `read`: the resource as just read for this job (null: gone); undefined reads it now. */
  private async handle(job: LeasedJob, announced = false, read?: ResourceStatus | null): Promise<void> {
    const { prisma } = this.deps.db;
    const started = performance.now();
    const heartbeat = setInterval(
      () => void extendLease(prisma, job, this.worker, this.config.leaseMs).catch(() => {}),
      this.config.leaseMs / 3,
    );
    const log = this.logFields(job);
    if (!announced) this.logger.debug(log, "reconcile started");
    const handler = this.handlers.get(job.kind);
    const attempt: Attempt = { id: job.targetId };
    let outcome: Outcome;
    try {
      if (!handler) throw new Error(`no reconcile handler for job kind "${job.kind}" in this registry`);
      outcome = await reconcileOnce(prisma, handler, attempt, this.abort.signal, read, {
        job,
        worker: this.worker,
      });
    } catch (error) {
      await this.settleFailure(job, handler, attempt, error, log, started);
      return;
    } finally {
      clearInterval(heartbeat);
    }
    await this.complete(job, outcome, log, started);
  }

  private async settleFailure(
    job: LeasedJob,
    handler: ReconcileHandler | undefined,
    attempt: Attempt,
    error: unknown,
    log: object,
    started: number,
  ) {
    const { prisma } = this.deps.db;
    try {
      if (this.abort.signal.aborted) {
        // Cut short by shutdown: not the provider's failure. Another process (or the next start) takes over.
        await releaseJob(prisma, job, this.worker);
        this.logger.info({ ...log, outcome: "released", durationMs: elapsed(started) }, "reconcile");
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = retryDelayMs(job.attempts, {
        baseMs: this.config.retryBaseMs,
        maxMs: this.config.retryMaxMs,
      });
      const failure = {
        message,
        retryMessage: `attempt ${job.attempts} failed: ${message}; retrying in ${(delayMs / 1000).toFixed(1)}s`,
        // Only a provider can say a failure is permanent; anything else (an outage, a bug) is retried.
        permanent: isPermanentProviderError(error),
      };
      const outcome = handler
        ? await writeTransaction(prisma, async (tx) => {
            const recorded = await recordResourceFailure(
              tx,
              handler.resource,
              {
                id: attempt.id,
                generation: attempt.read?.generation,
                name: attempt.read?.name ?? attempt.id,
              },
              failure,
            );
            // FAILED and the end of its job in one transaction: nobody sees one without the other.
            if (recorded === "failed") await completeJob(tx, job, this.worker);
            return recorded;
          })
        : "retry";
      const durationMs = elapsed(started);
      if (outcome === "failed") {
        this.logger.warn({ ...log, outcome, error: message, durationMs }, "reconcile");
        return;
      }
      await retryJob(prisma, job, this.worker, delayMs, message);
      const level = handler ? "warn" : "error";
      this.logger[level]({ ...log, outcome, error: message, delayMs, durationMs }, "reconcile");
    } catch (recordError) {
      // The lease expires and the job is tried again; nothing is lost.
      this.logger.error({ ...log, err: recordError }, "reconcile failure could not be recorded");
    }
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

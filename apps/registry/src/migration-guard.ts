import { isSchemaMissing, migrate, type Database } from "@stream-registry/store";
import type { Logger } from "./logger.ts";

export type MigrationOutcome = "applied" | "failed";

/**
 * Applies the migrations again when the database loses its schema while the registry runs
 * (dropped and created again empty, or restored from a backup older than this registry): the same
 * `migrate` that start-up runs, so a running registry ends up where a restarted one would. One run
 * at a time in this process; `migrate` takes PostgreSQL's advisory lock, so registries sharing the
 * database wait for one another and the later ones find nothing left to apply. A failed run is not
 * retried for `retryAfterMs`, so probes and requests cannot turn a broken migration into a loop.
 */
export class MigrationGuard {
  private running: Promise<MigrationOutcome> | undefined;
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    /**
     * What a first start does after migrating, done again once migrations were applied to an
     * emptied database (the first admin token, so that its holder is let in again).
     */
    private readonly afterApplied: () => Promise<void> = async () => {},
    private readonly retryAfterMs = 10_000,
  ) {}

  /** True while a run is in progress. */
  get applying(): boolean {
    return this.running !== undefined;
  }

  /** Applies pending migrations, or joins the run in progress. Never rejects; failures are logged. */
  apply(trigger: { reason: string; requestId?: string | undefined }): Promise<MigrationOutcome> {
    if (this.running) return this.running;
    if (performance.now() - this.failedAt < this.retryAfterMs) return Promise.resolve("failed");
    const run = this.run(trigger);
    this.running = run;
    void run.finally(() => (this.running = undefined));
    return run;
  }

  /** Starts a run in the background when `error` says the registry's tables are missing. */
  notice(error: unknown, requestId: string | undefined): void {
    if (isSchemaMissing(error)) void this.apply({ reason: "a query found a table missing", requestId });
  }

  private async run(trigger: { reason: string; requestId?: string | undefined }): Promise<MigrationOutcome> {
    try {
      this.logger.warn(trigger, "database schema is behind; applying migrations");
      const { applied } = await migrate(this.db);
      this.logger.info({ ...trigger, applied }, "database migrated while running");
      if (applied.length > 0) await this.afterApplied();
      return "applied";
    } catch (error) {
      this.failedAt = performance.now();
      // A MigrationError's message says what to do (e.g. a migration recorded as failed needs a hand).
      this.logger.error(
        { ...trigger, err: error, retryAfterMs: this.retryAfterMs },
        "database migrations could not be applied",
      );
      return "failed";
    }
  }
}

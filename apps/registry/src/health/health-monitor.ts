import type { HealthProbe } from "@stream-registry/store";
import type { HealthConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { forEachConcurrently, Periodic } from "../periodic.ts";

/** One kind of thing the health loop probes: clusters (through their providers), child registries. */
export interface HealthSubject<T> {
  /** How logs name the kind: "cluster", "child registry". */
  kind: string;
  /** Those not probed since `before` (by this or another registry process sharing the database). */
  due(before: Date): Promise<T[]>;
  /** What a probe found; undefined when this process cannot say (a provider it has not loaded). */
  probe(item: T, timeoutMs: number, signal: AbortSignal): Promise<HealthProbe | undefined>;
  record(item: T, outcome: HealthProbe): Promise<void>;
  /** The status its last probe recorded; null before the first. */
  lastStatus(item: T): "UP" | "DOWN" | null;
  /** How logs name it, e.g. { cluster: "c1" }. */
  describe(item: T): Record<string, unknown>;
}

/**
 * Probes each subject's due items every interval and records what it found. Items probed
 * recently (by this or another registry process sharing the database) are skipped, so N processes
 * do not probe N times as often. A change of status is logged.
 */
export class HealthMonitor {
  private readonly periodic: Periodic;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each subject keeps its own item type
    private readonly subjects: readonly HealthSubject<any>[],
    private readonly config: HealthConfig,
    private readonly logger: Logger,
  ) {
    this.periodic = new Periodic(
      config.intervalMs,
      (signal) => this.probeDue(signal),
      (error) => this.logger.error({ err: error }, "health round failed"),
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(timeoutMs: number): Promise<void> {
    return this.periodic.stop(timeoutMs);
  }

  /** Probes what was not probed within the last interval. */
  async probeDue(signal: AbortSignal): Promise<void> {
    // A little slack, so that an item probed one interval ago by this loop is due again now.
    const dueBefore = new Date(Date.now() - this.config.intervalMs * 0.9);
    // One subject that fails (its database read) leaves the others' probes to run.
    for (const subject of this.subjects) {
      await this.probeSubject(subject, dueBefore, signal).catch((error: unknown) =>
        this.logger.error({ err: error }, `${subject.kind} health round failed`),
      );
    }
  }

  private async probeSubject<T>(
    subject: HealthSubject<T>,
    dueBefore: Date,
    signal: AbortSignal,
  ): Promise<void> {
    const due = await subject.due(dueBefore);
    await forEachConcurrently(due, this.config.concurrency, async (item) => {
      if (signal.aborted) return;
      const outcome = await subject.probe(item, this.config.timeoutMs, signal);
      if (!outcome || signal.aborted) return;
      await subject
        .record(item, outcome)
        .catch((error: unknown) =>
          this.logger.error(
            { err: error, ...subject.describe(item) },
            `${subject.kind} health could not be recorded`,
          ),
        );
      const status = outcome.ok ? "UP" : "DOWN";
      if (subject.lastStatus(item) !== status) {
        const log = { ...subject.describe(item), status, ...(outcome.ok ? {} : { error: outcome.error }) };
        if (outcome.ok) this.logger.info(log, `${subject.kind} health`);
        else this.logger.warn(log, `${subject.kind} health`);
      }
    });
  }
}

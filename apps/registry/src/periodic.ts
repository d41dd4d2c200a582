import { forEachBounded } from "@stream-registry/core";

/**
 * Runs `round` every `intervalMs` (the first one at once), never two at a time. Its timers are
 * unref'd: a periodic task never keeps the process alive. `stop` aborts the signal handed to the
 * round in progress and waits for it to settle.
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly intervalMs: number,
    private readonly round: (signal: AbortSignal) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.intervalMs > 0 && !this.stopped && !this.timer) this.schedule(0);
  }

  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort(new Error("registry is shutting down"));
    if (this.current) {
      await Promise.race([this.current, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.current = this.round(this.abort.signal)
        .catch(this.onError)
        .finally(() => {
          this.current = undefined;
          if (!this.stopped) this.schedule(this.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}

/** Calls `work` on every item with at most `limit` calls in flight; never rejects. */
export function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  return forEachBounded(items, limit, (item) => work(item).catch(() => {}));
}

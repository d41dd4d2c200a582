/**
 * How long a cluster's admin clients stay connected unused before they are closed. The registry
 * probes each declared cluster every REGISTRY_HEALTH_INTERVAL_MS (default 30 s) and resyncs its
 * bindings every RECONCILER_RESYNC_MS (default 60 s), which keeps its clients warm; it must stay well
 * above those intervals so that mostly the clients of clusters the registry no longer uses (deleted
 * here or by another registry process sharing the database) are closed, not reconnected each round.
 */
export const DEFAULT_IDLE_CLOSE_MS = 5 * 60_000;

/** setTimeout's largest delay: a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Checks the `idleCloseMs` option, which is given in code rather than parsed from config. */
export function checkIdleCloseMs(ms: number): number {
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_TIMER_MS) {
    throw new RangeError(`idleCloseMs must be an integer from 1 to ${MAX_TIMER_MS} (ms), got ${ms}`);
  }
  return ms;
}

/**
 * Calls `onIdle` once a client has been unused for `idleMs`: `start` when its last user is done,
 * `stop` when it is used again or closed. Unref'd, so an idle client never keeps the process alive.
 */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {}

  start(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onIdle, this.idleMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

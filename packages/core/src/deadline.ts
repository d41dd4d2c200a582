const MAX_TIMER_MS = 2 ** 31 - 1;

/** A call that did not finish by its deadline. */
export class DeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`did not finish within ${timeoutMs} ms`);
    this.name = "DeadlineExceeded";
  }
}

export interface DeadlineOptions {
  /** How long to wait; not finite means no deadline of its own (only `signal`). */
  timeoutMs: number;
  /** The caller's own signal (shutdown, a cancelled request): aborting it ends the wait too. */
  signal?: AbortSignal;
}

/**
 * Runs `call` with a signal that aborts at the deadline or with the caller's `signal`, and settles
 * by then even if `call` ignores its signal: it rejects with DeadlineExceeded at the deadline, or
 * with the caller's abort reason. A caller whose signal is already aborted is refused without
 * calling. The wait ends, the work may not: `call` should stop when its signal aborts, and what it
 * still does after that is its own (its outcome is dropped).
 */
export function withDeadline<T>(
  call: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions,
): Promise<T> {
  const { timeoutMs, signal: parent } = options;
  const signals = parent ? [parent] : [];
  // AbortSignal.timeout's timer is unref'd: a deadline alone never keeps the process alive. Beyond
  // the timer's range (about 24.8 days) Node would fire at once, so that counts as none.
  const timeout = timeoutMs <= MAX_TIMER_MS ? AbortSignal.timeout(Math.max(0, timeoutMs)) : undefined;
  if (timeout) signals.push(timeout);
  const signal = AbortSignal.any(signals);
  // The caller's reason wins when both have fired: it is the caller who stopped waiting.
  const failure = () => (parent?.aborted ? parent.reason : new DeadlineExceeded(timeoutMs));
  if (signal.aborted) return Promise.reject(failure());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(failure());
    // Listened to directly, not only through the AbortSignal.any: Node holds a timeout signal, and
    // the sources of an any(), weakly, so a deadline nothing else refers to could be collected and
    // never fire (seen under load). `waiting` holds it until the wait is over.
    for (const source of signals) source.addEventListener("abort", onAbort, { once: true });
    if (timeout) waiting.add(timeout);
    const done = () => {
      for (const source of signals) source.removeEventListener("abort", onAbort);
      if (timeout) waiting.delete(timeout);
    };
    let work: Promise<T>;
    try {
      work = call(signal);
    } catch (error) {
      // A call that throws before returning its promise rejects like one that rejects.
      done();
      reject(error);
      return;
    }
    work.then(resolve, reject).finally(done);
  });
}

/** Deadlines being waited for, held strongly (see withDeadline). */
const waiting = new Set<AbortSignal>();

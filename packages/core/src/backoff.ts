export interface RetryDelayOptions {
  baseMs?: number;
  maxMs?: number;
  random?: () => number;
}

const DEFAULT_BASE_MS = 500;
const DEFAULT_MAX_MS = 60_000;

/**
 * Exponential backoff with "equal jitter": half the cap is guaranteed so a
 * retry never fires immediately, the other half is random so that many
 * bindings failing together against one cluster do not retry in lockstep.
 */
export function retryDelayMs(attempt: number, options: RetryDelayOptions = {}): number {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be an integer of at least 1, got ${attempt}`);
  }
  const { baseMs = DEFAULT_BASE_MS, maxMs = DEFAULT_MAX_MS, random = Math.random } = options;
  // 2 ** attempt overflows to Infinity for huge attempts, which Math.min caps cleanly.
  const cap = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

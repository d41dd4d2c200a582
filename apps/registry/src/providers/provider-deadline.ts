/** A provider call that did not answer by its deadline. */
export class ProviderDeadlineExceeded extends Error {
  constructor(timeoutMs: number) {
    super(`did not answer within ${timeoutMs / 1000}s`);
    this.name = "ProviderDeadlineExceeded";
  }
}

/**
 * Runs a provider call with a signal that aborts after `timeoutMs` (or with `parent`), and rejects
 * with ProviderDeadlineExceeded at the deadline even if the provider ignores its signal.
 */
export async function withProviderDeadline<T>(
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
  parent?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const signal = parent ? AbortSignal.any([parent, controller.signal]) : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const exceeded = new ProviderDeadlineExceeded(timeoutMs);
      controller.abort(exceeded);
      reject(exceeded);
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

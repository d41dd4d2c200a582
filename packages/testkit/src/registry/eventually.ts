/** Polls `probe` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * What `probe` gives once it stopped changing: the same (as JSON) twice, `quietMs` apart. For what
 * other processes report in their own time (log lines, feeds), where no single event says "done".
 */
export async function settled<T>(
  probe: () => Promise<T> | T,
  quietMs = 300,
  timeoutMs = 30_000,
  what = "a settled value",
): Promise<T> {
  let last = JSON.stringify(await probe());
  return eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      const value = await probe();
      const now = JSON.stringify(value);
      const still = now === last;
      last = now;
      return still ? value : undefined;
    },
    timeoutMs,
    what,
  );
}

/**
 * Runs `work` on every item with at most `limit` calls in flight; rejects with the first failure
 * (the calls already started still run). Callers that must go on past a failure catch in `work`.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

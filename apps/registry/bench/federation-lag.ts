/**
 * The index lag of bench:federation: a burst of creates at one leaf, then the root's index polled
 * every 20 ms until it counts them all.
 */
import { call, forEachConcurrently, sleep } from "./federation-measure.ts";
import { create, streamName } from "./federation-population.ts";
import { LAG } from "./federation-queries.ts";
import { fixed } from "./federation-report.ts";

export interface Lag {
  /** From the last create's answer until the root's index counted the burst. */
  seconds: number;
  polls: number;
  /** What the first poll's `lag` said. */
  firstLag: string;
  burstSeconds: number;
}

export async function measureLag(
  rootUrl: string,
  leaf: { url: string; path: string; streams: number },
  burst: number,
  concurrency: number,
): Promise<Lag> {
  const seconds = (since: number) => (performance.now() - since) / 1000;
  const burstStarted = performance.now();
  await forEachConcurrently(burst, concurrency, (i) => create(leaf.url, [streamName(i, "burst")], false));
  const acknowledged = performance.now();
  let polls = 0;
  let firstLag = "";
  for (;;) {
    const polled = performance.now();
    const data = await call<{
      streams: {
        totalCount: number;
        lag: { namespace: string; entriesBehind: number; secondsBehind: number }[];
      };
    }>(rootUrl, LAG, { namespace: leaf.path });
    polls++;
    if (polls === 1) {
      firstLag =
        data.streams.lag
          .map((l) => `${l.namespace}: ${l.entriesBehind} entries, ${fixed(l.secondsBehind, 2)} s`)
          .join("; ") || "none";
    }
    if (data.streams.totalCount >= leaf.streams + burst) break;
    if (seconds(acknowledged) > 120)
      throw new Error(`the root's index did not count the burst within 120 s: ${JSON.stringify(data)}`);
    await sleep(Math.max(0, 20 - (performance.now() - polled)));
  }
  return {
    seconds: seconds(acknowledged),
    polls,
    firstLag,
    burstSeconds: (acknowledged - burstStarted) / 1000,
  };
}

export function printLag(lag: Lag, burst: number, leaf: string, concurrency: number): void {
  console.log(
    `Index lag: ${burst} creates at ${leaf} took ${fixed(lag.burstSeconds, 2)} s (${concurrency} clients); ` +
      `the root's index counted them all ${fixed(lag.seconds, 3)} s after the last answer ` +
      `(${lag.polls} polls every 20 ms; the first poll's lag: ${lag.firstLag})`,
  );
}

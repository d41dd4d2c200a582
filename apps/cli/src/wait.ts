import { setTimeout as sleep } from "node:timers/promises";
import { retryDelayMs } from "@stream-registry/core";
import { CancelledError, WaitFailedError } from "./errors.ts";
import type { WaitOptions } from "./statements/context.ts";

/** One look at the thing being waited for. */
export type Probe =
  { state: "done" } | { state: "waiting"; detail: string } | { state: "failed"; detail: string };

/**
 * Polls `probe` with growing, jittered pauses until it is done, failed (WaitFailedError) or the
 * timeout passes (WaitFailedError). Progress goes out whenever the detail changes.
 */
export async function waitUntil(
  options: WaitOptions,
  what: string,
  probe: () => Promise<Probe>,
): Promise<void> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let lastDetail: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const seen = await probe();
    if (seen.state === "done") return;
    if (seen.state === "failed") throw new WaitFailedError(`${what}: ${seen.detail}`);
    if (seen.detail !== lastDetail) {
      options.progress(`waiting for ${what}: ${seen.detail} (${seconds(Date.now() - started)})`);
      lastDetail = seen.detail;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new WaitFailedError(
        `timed out after ${seconds(options.timeoutMs)} waiting for ${what} (last seen: ${seen.detail})`,
      );
    }
    const pause = retryDelayMs(attempt, {
      baseMs: options.pollBaseMs ?? 250,
      maxMs: options.pollMaxMs ?? 2000,
    });
    // The last look happens at the deadline, not a pause before it.
    await sleep(Math.min(pause, left), undefined, { signal: options.signal }).catch(() => {
      throw new CancelledError();
    });
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

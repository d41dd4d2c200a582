import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls the worker's `GET /health` until it answers 200: 503 while it starts, and only after it
 * joined its group and read its internal topics is it ready (`GET /connectors` answers earlier).
 */
export async function waitUntilHealthy(
  url: string,
  isRunning: () => boolean,
  describeFailure: () => string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (!isRunning())
      throw new Error(`The Connect worker at ${url} exited while starting.\n${describeFailure()}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      if (response.status === 200) return;
      last = `${response.status} ${body}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(250);
  }
  throw new Error(
    `The Connect worker at ${url} was not healthy after ${timeoutMs} ms (last answer: ${last}).\n${describeFailure()}`,
  );
}

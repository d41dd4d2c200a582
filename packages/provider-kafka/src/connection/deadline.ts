import { DeadlineExceeded, withDeadline as withCoreDeadline } from "@stream-registry/core";
import { InfrastructureError } from "@stream-registry/provider-api";

/** A call cut short by its deadline or by its caller: retriable, the cluster may answer next time. */
export class CallInterrupted extends InfrastructureError {
  constructor(
    readonly reason: "timeout" | "aborted",
    readonly what: string,
    /** What happened, without `what`: "did not finish within 8000 ms". */
    readonly detail: string,
  ) {
    super(`${what} ${detail}`, { retriable: true });
  }
}

/**
 * Runs `work` until it settles, `timeoutMs` passes or `signal` aborts, whichever comes first
 * (core's withDeadline), failing with a CallInterrupted that says which. kafkajs calls cannot be
 * cancelled; the caller discards the admin client of a call cut short so that whatever kafkajs
 * still retries in the background stops with it.
 */
export async function withDeadline<T>(
  work: () => Promise<T>,
  options: { signal: AbortSignal; timeoutMs: number; what: string },
): Promise<T> {
  const { signal, timeoutMs, what } = options;
  try {
    return await withCoreDeadline(work, { timeoutMs, signal });
  } catch (error) {
    if (error instanceof DeadlineExceeded) throw new CallInterrupted("timeout", what, error.message);
    // Core rejects with the signal's own reason when the caller aborts.
    if (signal.aborted && error === signal.reason)
      throw new CallInterrupted("aborted", what, `was aborted: ${abortReason(signal)}`);
    throw error;
  }
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason ?? "aborted");
}

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
 * Runs `work` until it settles, `timeoutMs` passes or `signal` aborts, whichever comes first.
 * kafkajs calls cannot be cancelled; the caller discards the admin client of a call cut short so
 * that whatever kafkajs still retries in the background stops with it.
 */
export function withDeadline<T>(
  work: () => Promise<T>,
  options: { signal: AbortSignal; timeoutMs: number; what: string },
): Promise<T> {
  const { signal, timeoutMs, what } = options;
  const aborted = () => new CallInterrupted("aborted", what, `was aborted: ${abortReason(signal)}`);
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise<T>((resolve, reject) => {
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      finish();
    };
    const onAbort = () => settle(() => reject(aborted()));
    const timer = setTimeout(
      () =>
        settle(() => reject(new CallInterrupted("timeout", what, `did not finish within ${timeoutMs} ms`))),
      timeoutMs,
    );
    signal.addEventListener("abort", onAbort, { once: true });
    work().then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason ?? "aborted");
}

import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  handleWhen,
  type CircuitBreakerPolicy,
} from "cockatiel";
import {
  postOperation,
  RemoteRegistryError,
  type RemoteAnswer,
  type RemoteCallOptions,
} from "./remote-registry.ts";

/** Failures in a row after which a child is not asked for a while. */
const FAILURES_TO_OPEN = 5;
/** How long a child whose circuit opened is left alone before one call tries it again. */
const HALF_OPEN_AFTER_MS = 10_000;

/**
 * Calls to child registries, each child behind a circuit breaker (cockatiel's): a child that did
 * not answer FAILURES_TO_OPEN times in a row is not asked for HALF_OPEN_AFTER_MS, so a dead child
 * costs a page of the others nothing, not a timeout per request. Only a child that does not answer
 * counts; its refusals and errors are answers.
 */
export class ChildCalls {
  private readonly breakers = new Map<string, CircuitBreakerPolicy>();
  /** Why each child last did not answer: said again while its circuit is open. */
  private readonly lastFailures = new Map<string, string>();

  constructor(
    /** Why the child at a URL is not to be called (it is suspended), or undefined. */
    private readonly refusal: (url: string) => Promise<string | undefined> = async () => undefined,
  ) {}

  async post<T>(
    url: string,
    query: string,
    variables: Record<string, unknown>,
    options: RemoteCallOptions,
  ): Promise<RemoteAnswer<T>> {
    // Before the breaker: a suspended child is not a child that fails.
    const refused = await this.refusal(url);
    if (refused !== undefined) throw new RemoteRegistryError("suspended", url, refused);
    try {
      return await this.breaker(url).execute(() => postOperation<T>(url, query, variables, options));
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        const last = this.lastFailures.get(url);
        throw new RemoteRegistryError(
          "unreachable",
          url,
          `${url} did not answer ${FAILURES_TO_OPEN} times in a row${last ? ` (last: ${last})` : ""}; not asked again for ${HALF_OPEN_AFTER_MS / 1000} s`,
        );
      }
      if (error instanceof RemoteRegistryError && error.failure === "unreachable") {
        this.lastFailures.set(url, error.message);
      }
      throw error;
    }
  }

  private breaker(url: string): CircuitBreakerPolicy {
    let breaker = this.breakers.get(url);
    if (!breaker) {
      breaker = circuitBreaker(
        handleWhen((error) => error instanceof RemoteRegistryError && error.failure === "unreachable"),
        { halfOpenAfter: HALF_OPEN_AFTER_MS, breaker: new ConsecutiveBreaker(FAILURES_TO_OPEN) },
      );
      this.breakers.set(url, breaker);
    }
    return breaker;
  }
}

import {
  BadResponseError,
  CancelledError,
  NotAuthenticatedError,
  NotGraphQLEndpointError,
  RegistryUnreachableError,
} from "../errors.ts";
import { ExitCode } from "../exit-codes.ts";

export interface GraphQLErrorData {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: GraphQLErrorData[];
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface GraphQLClientOptions {
  /** The registry's GraphQL endpoint, e.g. http://localhost:4000/graphql. */
  url: string;
  /** Defaults to the global fetch; automation may pass its own (proxies, auth, tests). */
  fetch?: FetchLike;
  /** Extra headers on every request, e.g. Authorization with the caller's token. */
  headers?: Record<string, string>;
  /** Per request; a registry that does not answer in time counts as unreachable. */
  timeoutMs?: number;
  /** Cancels every request of this client (one run's); they fail with CancelledError. */
  signal?: AbortSignal;
}

/** POSTs GraphQL operations to one registry and returns the response as it came. */
export class GraphQLClient {
  readonly url: string;
  readonly #fetch: FetchLike;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #signal: AbortSignal | undefined;

  constructor(options: GraphQLClientOptions) {
    this.url = options.url;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#headers = options.headers ?? {};
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#signal = options.signal;
  }

  /** The same client, its requests cancelled by `signal` (a run's). */
  withSignal(signal: AbortSignal | undefined): GraphQLClient {
    if (!signal) return this;
    const { url } = this;
    return new GraphQLClient({
      url,
      fetch: this.#fetch,
      headers: this.#headers,
      timeoutMs: this.#timeoutMs,
      signal,
    });
  }

  async request<T>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>> {
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...this.#headers },
        body: JSON.stringify({ query, variables }),
        signal: this.#signal
          ? AbortSignal.any([AbortSignal.timeout(this.#timeoutMs), this.#signal])
          : AbortSignal.timeout(this.#timeoutMs),
      });
      // The body streams after the headers: a reset or timeout mid-body is as unreachable as one before.
      text = await response.text();
    } catch (error) {
      if (this.#signal?.aborted) throw new CancelledError();
      throw new RegistryUnreachableError(this.url, describeFetchFailure(error));
    }
    // A POST that was redirected arrives as a GET (a registry's "/" redirects to /graphql, which
    // then refuses it as a possible CSRF): whatever it answers, this URL is not the endpoint.
    if (response.redirected && !response.ok) {
      throw new NotGraphQLEndpointError(
        this.url,
        `it redirects to ${response.url}, and the request does not survive the redirect`,
        response.url,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Proxies and load balancers answer 502/503/504 with HTML while the registry is down.
      const detail = `HTTP ${response.status} with a body that is not JSON`;
      if ([502, 503, 504].includes(response.status)) {
        throw new BadResponseError(this.url, detail, ExitCode.UNAVAILABLE);
      }
      throw this.#notGraphQL(detail);
    }
    if (!isGraphQLResponse(body))
      throw this.#notGraphQL(`HTTP ${response.status} without "data" or "errors"`);
    if (response.status === 401) {
      const [first] = (body as GraphQLResponse<T>).errors ?? [];
      const reason =
        typeof first?.extensions?.reason === "string" ? first.extensions.reason : "no reason given";
      const given = Object.keys(this.#headers).some((name) => name.toLowerCase() === "authorization");
      throw new NotAuthenticatedError(this.url, reason, given);
    }
    return body as GraphQLResponse<T>;
  }

  /** An answer that is not GraphQL: at a URL that does not end in /graphql, the likely reason. */
  #notGraphQL(detail: string): BadResponseError | NotGraphQLEndpointError {
    const url = new URL(this.url);
    return url.pathname.endsWith("/graphql")
      ? new BadResponseError(this.url, detail)
      : new NotGraphQLEndpointError(this.url, detail, `${url.origin}/graphql`);
  }
}

function isGraphQLResponse(body: unknown): body is GraphQLResponse<unknown> {
  return typeof body === "object" && body !== null && ("data" in body || "errors" in body);
}

function describeFetchFailure(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return "no answer in time";
  }
  // undici reports "fetch failed" and keeps the system error (ECONNREFUSED, ENOTFOUND) as the cause.
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

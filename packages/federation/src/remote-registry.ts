import { DeadlineExceeded, withDeadline } from "@stream-registry/core";

/** Why a call to another registry gave no data. */
export type RemoteFailure =
  /** Nothing answered at the URL: refused, unresolvable, reset, or no answer by the deadline. */
  | "unreachable"
  /** Something answered, but not as a GraphQL server does (an HTML page, a 404, not JSON). */
  | "not-a-registry"
  /** A GraphQL server answered with errors (e.g. a server that is not a registry lacks the field). */
  | "errors";

/** A call to another registry (a parent or a child) that gave no data; `message` says what it got. */
export class RemoteRegistryError extends Error {
  constructor(
    readonly failure: RemoteFailure,
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = "RemoteRegistryError";
  }
}

export interface RemoteCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sent as is (the caller's identity headers, a request id). */
  headers?: Record<string, string>;
}

/** The largest answer read from another registry: a page of a registration or a probe is small. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Sends one GraphQL operation to the registry at `url` over HTTP and returns its data, or throws a
 * RemoteRegistryError saying whether nothing answered, something that is not a GraphQL server
 * answered, or the server answered with errors.
 */
export async function callRegistry<T>(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  options: RemoteCallOptions,
): Promise<T> {
  const body = await withDeadline(
    async (signal) => {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/graphql-response+json, application/json",
            ...options.headers,
          },
          body: JSON.stringify({ query, variables }),
          signal,
          redirect: "error",
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new RemoteRegistryError("unreachable", url, `${url} does not answer: ${causeOf(error)}`);
      }
      const text = await readLimited(response, url);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw notARegistry(url, `it answered HTTP ${response.status} with something that is not JSON`);
      }
      return { status: response.status, parsed };
    },
    { timeoutMs: options.timeoutMs, signal: options.signal },
  ).catch((error: unknown) => {
    if (error instanceof DeadlineExceeded) {
      throw new RemoteRegistryError(
        "unreachable",
        url,
        `${url} did not answer within ${options.timeoutMs} ms`,
      );
    }
    throw error;
  });
  const answer = body.parsed as { data?: unknown; errors?: { message?: unknown }[] } | null;
  if (typeof answer !== "object" || answer === null || !("data" in answer || "errors" in answer)) {
    throw notARegistry(url, `it answered HTTP ${body.status} with JSON that is not a GraphQL response`);
  }
  if (Array.isArray(answer.errors) && answer.errors.length > 0) {
    const messages = answer.errors.map((e) => String(e?.message ?? "unknown error")).slice(0, 3);
    throw new RemoteRegistryError("errors", url, `${url} answered with errors: ${messages.join("; ")}`);
  }
  if (typeof answer.data !== "object" || answer.data === null) {
    throw notARegistry(url, `it answered HTTP ${body.status} without data`);
  }
  return answer.data as T;
}

function notARegistry(url: string, what: string): RemoteRegistryError {
  return new RemoteRegistryError("not-a-registry", url, `${url} is not a stream registry: ${what}`);
}

async function readLimited(response: Response, url: string): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw notARegistry(url, `its answer of ${declared} bytes exceeds ${MAX_ANSWER_BYTES}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw notARegistry(url, `its answer exceeds ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** fetch's own message is "fetch failed"; the reason is its cause (ECONNREFUSED, ENOTFOUND...). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

import { DeadlineExceeded, redirectRefusal, withDeadline } from "@stream-registry/core";
import { AnswerTooLarge, NoAnswer, postJson, Redirected } from "./http-post.ts";

/** Why a call to another registry gave no data. */
export type RemoteFailure =
  /** Nothing answered at the URL: refused, unresolvable, reset, or no answer by the deadline. */
  | "unreachable"
  /** Something answered, but not as a GraphQL server does (an HTML page, a 404, not JSON). */
  | "not-a-registry"
  /** A GraphQL server answered with errors (e.g. a server that is not a registry lacks the field). */
  | "errors"
  /** It refused the caller's credential (UNAUTHENTICATED): it does not know the caller (any more). */
  | "unauthenticated"
  /** The caller's signal aborted first (its own client went away, or it is stopping): abandoned. */
  | "cancelled"
  /** Not called: an admin of the calling registry suspended that child (SUSPEND CHILD REGISTRY). */
  | "suspended";

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

/**
 * A call to another registry, settled: its value, or the RemoteRegistryError of a registry that did
 * not give one (to be said as such); anything else is a bug, and is thrown.
 */
export function orRemoteError<T>(call: Promise<T>): Promise<T | RemoteRegistryError> {
  return call.catch((error: unknown) => {
    if (error instanceof RemoteRegistryError) return error;
    throw error;
  });
}

export interface RemoteCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sent as is (the caller's identity headers, a request id). */
  headers?: Record<string, string>;
  /** Which of the document's operations to run, when it has several (a client's, passed on). */
  operationName?: string;
}

/** The largest answer read from another registry: a page of a registration or a probe is small. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** A GraphQL error as another registry sent it. */
export interface RemoteGraphQLError {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

/** What another registry answered: its data (null when it had none) and its errors. */
export interface RemoteAnswer<T> {
  data: T | null;
  errors: RemoteGraphQLError[];
  /** The answer as it was sent (JSON): passed on as is where nothing in it is changed. */
  text: string;
}

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
  const { data, errors } = await postOperation<T>(url, query, variables, options);
  if (errors.length > 0) {
    const messages = errors.map((e) => e.message).slice(0, 3);
    const refused = errors.every((e) => e.extensions?.code === "UNAUTHENTICATED");
    throw new RemoteRegistryError(
      refused ? "unauthenticated" : "errors",
      url,
      `${url} answered with errors: ${messages.join("; ")}`,
    );
  }
  if (data === null) throw notARegistry(url, "it answered without data");
  return data;
}

/**
 * Sends one GraphQL operation to the registry at `url` and returns what it answered, data and
 * errors alike (a forwarded operation passes both on); throws a RemoteRegistryError when nothing
 * answered or what answered is not a GraphQL server.
 */
export async function postOperation<T>(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  options: RemoteCallOptions,
): Promise<RemoteAnswer<T>> {
  const target = URL.canParse(url) ? new URL(url) : undefined;
  if (target?.protocol !== "http:" && target?.protocol !== "https:")
    throw new RemoteRegistryError("unreachable", url, `${url} is not an http or https URL`);
  const body = await withDeadline(
    async (signal) => {
      const { status, text } = await postJson(
        target,
        JSON.stringify({ query, variables, operationName: options.operationName }),
        { accept: "application/graphql-response+json, application/json", ...options.headers },
        { signal, maxBytes: MAX_ANSWER_BYTES },
      ).catch((error: unknown) => {
        if (error instanceof NoAnswer)
          throw new RemoteRegistryError("unreachable", url, `${url} does not answer: ${error.code}`);
        if (error instanceof Redirected) {
          const message = redirectRefusal("registry", url, error.status, error.location);
          throw new RemoteRegistryError("not-a-registry", url, message);
        }
        if (error instanceof AnswerTooLarge) {
          const size = error.declared === undefined ? "" : ` of ${error.declared} bytes`;
          throw notARegistry(url, `its answer${size} exceeds ${MAX_ANSWER_BYTES} bytes`);
        }
        throw error;
      });
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw notARegistry(url, `it answered HTTP ${status} with something that is not JSON`);
      }
      return { status, parsed, text };
    },
    { timeoutMs: options.timeoutMs, signal: options.signal },
  ).catch((error: unknown) => {
    if (options.signal?.aborted && !(error instanceof RemoteRegistryError)) {
      throw new RemoteRegistryError(
        "cancelled",
        url,
        `the call to ${url} was abandoned: its caller stopped waiting`,
      );
    }
    if (error instanceof DeadlineExceeded) {
      throw new RemoteRegistryError(
        "unreachable",
        url,
        `${url} did not answer within ${options.timeoutMs} ms`,
      );
    }
    throw error;
  });
  const answer = body.parsed as { data?: unknown; errors?: unknown } | null;
  if (typeof answer !== "object" || answer === null || !("data" in answer || "errors" in answer)) {
    throw notARegistry(url, `it answered HTTP ${body.status} with JSON that is not a GraphQL response`);
  }
  const errors = Array.isArray(answer.errors)
    ? answer.errors.map((e: { message?: unknown; path?: unknown; extensions?: unknown }) => ({
        message: String(e?.message ?? "unknown error"),
        ...(Array.isArray(e?.path) ? { path: e.path as (string | number)[] } : {}),
        ...(typeof e?.extensions === "object" && e.extensions !== null
          ? { extensions: e.extensions as Record<string, unknown> }
          : {}),
      }))
    : [];
  const data = typeof answer.data === "object" && answer.data !== null ? (answer.data as T) : null;
  return { data, errors, text: body.text };
}

function notARegistry(url: string, what: string): RemoteRegistryError {
  return new RemoteRegistryError("not-a-registry", url, `${url} is not a stream registry: ${what}`);
}

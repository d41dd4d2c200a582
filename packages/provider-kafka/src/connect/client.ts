import { formatHostPort, redirectRefusal } from "@stream-registry/core";
import type { ConfigIssue, ConnectPolicy, ProviderError } from "@stream-registry/provider-api";
import { hostPortOf } from "../config/http-service.ts";
import { httpCall, HttpAnswerTooLarge } from "../connection/http-call.ts";
import { CONNECT_MAP, type ConnectSettings } from "./connect-config.ts";

/** A call that takes longer has failed as an outage would (retriable). */
const CALL_TIMEOUT_MS = 30_000;
/** The largest answer read: a plugin's validation of a large connector is well under this. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Makes the manager's error: a StreamSourceError for sources, a StreamSinkError for sinks. */
export type ConnectorFailure = (
  message: string,
  options: { retriable: boolean; issues?: ConfigIssue[]; cause?: unknown },
) => ProviderError;

/** What every call of one manager shares: the worker, the allow-list, its errors and redaction. */
export interface ConnectCallContext {
  settings: ConnectSettings;
  policy: ConnectPolicy;
  fail: ConnectorFailure;
  /** Hides the request's secrets in any text Connect answers (see redaction.ts). */
  redact: (text: string) => string;
  signal: AbortSignal;
}

/** One call of Connect's REST API; its segments already encoded. */
export interface ConnectCall {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  body?: unknown;
}

/** A 2xx answer, or a 404, which each caller reads for itself (absent is success for a delete). */
export interface ConnectAnswer {
  status: number;
  body: unknown;
}

/**
 * Calls the cluster's Connect worker (http-call.ts: timeouts, the caller's AbortSignal, no redirect
 * followed) after asking the registry's allow-list about its address, which may have changed since
 * the cluster was declared (the manager asks once an operation: askedOnce). An answer outside 2xx
 * and 404 is thrown: a rebalance (409), the worker's own failure (5xx) or an unreachable worker as
 * retriable, anything else as a refusal.
 * Nothing Connect says reaches a message before `redact` has seen it.
 */
export async function connectCall(context: ConnectCallContext, call: ConnectCall): Promise<ConnectAnswer> {
  const { settings, fail, redact, signal } = context;
  signal.throwIfAborted();
  const where = `${call.method} ${settings.url}${call.path.replace(/\?.*$/, "")}`;
  const { host, port } = hostPortOf(settings.url);
  if (context.policy.restricted && !(await context.policy.allows(host, port))) {
    const message =
      `Kafka Connect worker ${formatHostPort(host, port)} is not in REGISTRY_CONNECT_ALLOW: ` +
      `this registry connects only to the hosts and networks its operator allows`;
    throw fail(message, { retriable: false, issues: [{ field: [CONNECT_MAP, "url"], message }] });
  }
  let answer;
  try {
    answer = await httpCall(settings, {
      ...call,
      signal,
      timeoutMs: CALL_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof HttpAnswerTooLarge) {
      throw fail(`Kafka Connect ${where} answered ${error.message}: not a Connect worker`, {
        retriable: false,
        issues: [{ field: [CONNECT_MAP, "url"], message: "not a Kafka Connect worker" }],
      });
    }
    const why = redact(error instanceof Error ? error.message : String(error));
    throw fail(`Kafka Connect ${where} unreachable: ${why}`, { retriable: true, cause: error });
  }
  if (answer.redirect) {
    const message = redirectRefusal(
      "Kafka Connect worker",
      settings.url,
      answer.status,
      answer.location ?? undefined,
    );
    throw fail(message, { retriable: false, issues: [{ field: [CONNECT_MAP, "url"], message }] });
  }
  if (answer.ok || answer.status === 404) return { status: answer.status, body: answer.body };
  throw failureOfAnswer(context, where, answer.status, answer.body);
}

/**
 * The allow-list asked once per host and port for one operation: a create or an update polls the
 * worker's status many times, and each ask may resolve the worker's name (connect-guard.ts).
 */
export function askedOnce(policy: ConnectPolicy): ConnectPolicy {
  if (!policy.restricted) return policy;
  const answers = new Map<string, Promise<boolean>>();
  return {
    restricted: true,
    allows(host, port) {
      const key = `${host}:${port}`;
      const answer = answers.get(key) ?? policy.allows(host, port);
      answers.set(key, answer);
      return answer;
    },
  };
}

/** Connect's error body is `{error_code, message}`; its message, redacted and cut to a line's length. */
export function connectMessage(body: unknown, redact: (text: string) => string): string {
  const text =
    typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string"
      ? (body as { message: string }).message
      : typeof body === "string"
        ? body
        : JSON.stringify(body ?? "");
  return redact(text).slice(0, 1000);
}

function failureOfAnswer(
  { fail, redact }: ConnectCallContext,
  where: string,
  status: number,
  body: unknown,
): ProviderError {
  const message = connectMessage(body, redact);
  if (status === 409) {
    return fail(
      `Kafka Connect ${where} answered 409 (a rebalance of the worker group, or a concurrent change): ${message}`,
      {
        retriable: true,
      },
    );
  }
  const said = `Kafka Connect ${where} answered ${status}: ${message}`;
  if (status >= 500 || status === 408 || status === 429) return fail(said, { retriable: true });
  if (status === 401 || status === 403) {
    return fail(said, {
      retriable: false,
      issues: [
        {
          field: [CONNECT_MAP, "password"],
          message: `the Connect worker refused the credentials: ${message}`,
        },
      ],
    });
  }
  return fail(said, { retriable: false });
}

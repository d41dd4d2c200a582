import { httpCall, HttpAnswerTooLarge } from "../connection/http-call.ts";
import {
  schemaErrorOfAnswer,
  schemaRegistryRedirected,
  schemaRegistryUnreachable,
  unexpectedAnswer,
} from "./confluent-errors.ts";
import type { SchemaRegistrySettings } from "./schema-registry-config.ts";

export { segment } from "../connection/http-call.ts";

const MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";
/** A call that takes longer has failed as an outage would (retriable). */
const CALL_TIMEOUT_MS = 30_000;
/** The largest answer read: a schema is at most 1 MiB, a subject's list of versions far less. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** One call of Confluent's REST protocol. */
export interface ConfluentCall {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the registry's base URL, its segments already encoded. */
  path: string;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls an external registry (http-call.ts): the parsed JSON answer, or a SchemaManagerError (see
 * confluent-errors.ts). An aborted caller's signal rejects with the signal's reason, as the
 * built-in manager does. A redirect is refused, never followed.
 */
export async function confluentRequest(
  settings: SchemaRegistrySettings,
  call: ConfluentCall,
): Promise<unknown> {
  const where = `${call.method} ${settings.url}${call.path}`;
  let answer;
  try {
    answer = await httpCall(settings, {
      ...call,
      mediaType: MEDIA_TYPE,
      timeoutMs: CALL_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    if (error instanceof HttpAnswerTooLarge) throw unexpectedAnswer(where, error.message);
    call.signal?.throwIfAborted();
    throw schemaRegistryUnreachable(error, where);
  }
  if (answer.redirect) throw schemaRegistryRedirected(settings.url, answer.status, answer.location);
  if (!answer.ok) throw schemaErrorOfAnswer(answer.status, answer.body, where);
  return answer.body;
}

import { isRedirectStatus } from "@stream-registry/core";
import {
  schemaErrorOfAnswer,
  schemaRegistryRedirected,
  schemaRegistryUnreachable,
  unexpectedAnswer,
} from "./confluent-errors.ts";
import type { SchemaRegistrySettings } from "./schema-registry-config.ts";

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
 * Calls an external registry over fetch (keep-alive connections of undici's global pool): the
 * parsed JSON answer, or a SchemaManagerError (see confluent-errors.ts). An aborted caller's
 * signal rejects with the signal's reason, as the built-in manager does. A redirect is refused,
 * never followed: the registry's allow-list checked the configured URL, not where it points.
 */
export async function confluentRequest(
  settings: SchemaRegistrySettings,
  call: ConfluentCall,
): Promise<unknown> {
  call.signal?.throwIfAborted();
  const where = `${call.method} ${settings.url}${call.path}`;
  const headers: Record<string, string> = { accept: MEDIA_TYPE };
  if (call.body !== undefined) headers["content-type"] = MEDIA_TYPE;
  if (settings.username !== undefined) {
    const userInfo = `${settings.username}:${settings.password ?? ""}`;
    headers.authorization = `Basic ${Buffer.from(userInfo).toString("base64")}`;
  }
  const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${settings.url}${call.path}`, {
      method: call.method,
      headers,
      redirect: "manual",
      ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
      signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
    });
    // A redirect's body is not read: it is refused whatever it says.
    if (isRedirectStatus(response.status)) await response.body?.cancel();
    text = isRedirectStatus(response.status) ? "" : await readLimited(response);
  } catch (error) {
    if (error instanceof AnswerTooLarge) throw unexpectedAnswer(where, error.message);
    call.signal?.throwIfAborted();
    throw schemaRegistryUnreachable(error, where);
  }
  if (isRedirectStatus(response.status)) {
    throw schemaRegistryRedirected(settings.url, response.status, response.headers.get("location"));
  }
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error's message
  }
  if (!response.ok) throw schemaErrorOfAnswer(response.status, body, where);
  return body;
}

/** A path segment: a subject name or a version selector, percent-encoded. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

class AnswerTooLarge extends Error {}

/** The answer's text, refused past MAX_ANSWER_BYTES (a registry that is not one, or broken). */
async function readLimited(response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader!.cancel();
      throw new AnswerTooLarge(`more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

import { isRedirectStatus } from "@stream-registry/core";
import type { HttpServiceSettings } from "../config/http-service.ts";

/** One JSON call to a cluster's HTTP service (a schema registry, a Connect worker). */
export interface HttpCall {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the service's base URL, its segments already encoded (and its query, if any). */
  path: string;
  body?: unknown;
  signal?: AbortSignal;
  /** The media type sent and accepted; default application/json. */
  mediaType?: string;
  /** A call that takes longer has failed as an outage would. */
  timeoutMs: number;
  /** The largest answer read. */
  maxBytes: number;
}

/**
 * What the service answered: a status and its body (parsed JSON, or the text when it is not JSON,
 * undefined when empty), or a redirect, which is never followed and whose body is not read: the
 * registry's allow-list checked the configured URL, not where a redirect points.
 */
export type HttpAnswer =
  | { redirect: false; status: number; ok: boolean; body: unknown }
  | { redirect: true; status: number; location: string | null };

/** The service could not be reached (refused, reset, timed out, name not resolved). */
export class HttpUnreachable extends Error {}
/** The answer was larger than the call's maxBytes: not the service it should be, or broken. */
export class HttpAnswerTooLarge extends Error {}

/**
 * Calls `settings.url + call.path` over fetch (keep-alive connections of undici's global pool),
 * with Basic credentials when the settings have them, never following a redirect. An aborted
 * caller's signal rejects with the signal's reason before any request, and while one runs.
 */
export async function httpCall(settings: HttpServiceSettings, call: HttpCall): Promise<HttpAnswer> {
  call.signal?.throwIfAborted();
  const mediaType = call.mediaType ?? "application/json";
  const headers: Record<string, string> = { accept: mediaType };
  if (call.body !== undefined) headers["content-type"] = mediaType;
  if (settings.username !== undefined) {
    const userInfo = `${settings.username}:${settings.password ?? ""}`;
    headers.authorization = `Basic ${Buffer.from(userInfo).toString("base64")}`;
  }
  const timeout = AbortSignal.timeout(call.timeoutMs);
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
    if (isRedirectStatus(response.status)) {
      await response.body?.cancel();
      return { redirect: true, status: response.status, location: response.headers.get("location") };
    }
    text = await readLimited(response, call.maxBytes);
  } catch (error) {
    if (error instanceof HttpAnswerTooLarge) throw error;
    call.signal?.throwIfAborted();
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    throw new HttpUnreachable(cause instanceof Error ? cause.message : String(cause), { cause: error });
  }
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error's message
  }
  return { redirect: false, status: response.status, ok: response.ok, body };
}

/** A path segment (a subject, a connector name, a class), percent-encoded. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

/** The answer's text, refused past `max` bytes. */
async function readLimited(response: Response, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > max) {
      await reader!.cancel();
      throw new HttpAnswerTooLarge(`more than ${max} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

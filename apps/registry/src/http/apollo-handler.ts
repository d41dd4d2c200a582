import type { IncomingMessage, ServerResponse } from "node:http";
import { HeaderMap, type ApolloServer, type BaseContext, type ContextFunction } from "@apollo/server";
import { checkTokens } from "../graphql/guards/tokens.ts";
import { MAX_BODY_BYTES, readBodyText } from "./request-body.ts";

/** The most a request without a credential may send: a child's registration (its SDL) fits. */
export const ENROLLMENT_BODY_BYTES = 1024 * 1024;

/**
 * Hands one node:http request to Apollo Server and writes its answer. Query text over `maxTokens`
 * is refused first: parsing is the one step no plugin can bound.
 */
export async function handleGraphQL<C extends BaseContext>(
  server: ApolloServer<C>,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  context: ContextFunction<[], C>,
  maxTokens: number,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const query = queryText(body) ?? url.searchParams.get("query");
  const refusal = query === null ? undefined : checkTokens(query, maxTokens);
  if (refusal) {
    const { http: _http, ...extensions } = refusal.extensions;
    return sendJson(res, 400, { errors: [{ message: refusal.message, extensions }] });
  }
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? "GET", headers, search: url.search, body },
    context,
  });
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === "complete") {
    res.end(response.body.string);
    return;
  }
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}

function queryText(body: unknown): string | null {
  const query = typeof body === "object" && body !== null ? (body as { query?: unknown }).query : undefined;
  return typeof query === "string" ? query : null;
}

/** Reads a JSON body (or none); `undefined` with a 4xx already sent when it is unusable. */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes = MAX_BODY_BYTES,
): Promise<{ ok: boolean; body: unknown }> {
  if (req.method !== "POST") return { ok: true, body: undefined };
  const text = await readBodyText(req, res, maxBytes);
  if (text === undefined) {
    sendJson(res, 413, {
      errors: [{ message: `request body exceeds ${maxBytes} bytes`, extensions: { code: "BAD_REQUEST" } }],
    });
    return { ok: false, body: undefined };
  }
  if (!text) return { ok: true, body: undefined };
  if (!(req.headers["content-type"] ?? "").includes("json")) return { ok: true, body: text };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    sendJson(res, 400, {
      errors: [{ message: "request body is not valid JSON", extensions: { code: "BAD_REQUEST" } }],
    });
    return { ok: false, body: undefined };
  }
}

/**
 * A GraphQL answer's JSON text, in the media type the client accepts as Apollo would choose it:
 * application/graphql-response+json when it asks for that before application/json.
 */
export function sendAnswer(res: ServerResponse, req: IncomingMessage, text: string): void {
  const accept = req.headers.accept ?? "";
  const modern = accept.indexOf("application/graphql-response+json");
  const json = accept.indexOf("application/json");
  res.statusCode = 200;
  res.setHeader(
    "content-type",
    modern >= 0 && (json < 0 || modern < json)
      ? "application/graphql-response+json; charset=utf-8"
      : "application/json; charset=utf-8",
  );
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.end(JSON.stringify(value));
}

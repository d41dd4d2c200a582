import { request } from "node:http";
import { expect } from "vitest";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";

/** A response of the schema registry's REST API as it came over HTTP: its JSON body parsed (else text). */
export interface RestResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer of any shape
  body: any;
  headers: Headers;
}

/** The Authorization header a Confluent client sends with `basic.auth.user.info = user:token`. */
export function basicAuth(token: string, user = "sr-client"): string {
  return `Basic ${Buffer.from(`${user}:${token}`).toString("base64")}`;
}

export const MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";

/** A client of the REST API of the registry whose GraphQL endpoint is `graphqlUrl`, as the testkit's admin by default. */
export function schemaRegistryClient(graphqlUrl: string, authorization = basicAuth(TEST_ADMIN_TOKEN)) {
  const base = graphqlUrl.replace(/\/graphql$/, "/schema-registry");
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RestResponse> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(authorization && { authorization }),
        ...(body !== undefined && { "content-type": MEDIA_TYPE }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // a raw schema (protobuf) or an empty answer
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  return {
    base,
    request,
    get: (path: string) => request("GET", path),
    post: (path: string, body: unknown) => request("POST", path, body),
    put: (path: string, body: unknown) => request("PUT", path, body),
    delete: (path: string) => request("DELETE", path),
    /** Registers `schema` (a JSON value or text) under `subject`; returns its id, failing the test otherwise. */
    async register(subject: string, schema: unknown, extra: Record<string, unknown> = {}): Promise<number> {
      const text = typeof schema === "string" ? schema : JSON.stringify(schema);
      const response = await request("POST", `/subjects/${encodeURIComponent(subject)}/versions`, {
        schema: text,
        ...extra,
      });
      expect(response.body).toMatchObject({ id: expect.any(Number) });
      return response.body.id as number;
    },
  };
}

export type SchemaRegistryClient = ReturnType<typeof schemaRegistryClient>;

/** Expects Confluent's error answer: the status, and `{error_code, message}` with the code. */
export function expectError(
  response: RestResponse,
  status: number,
  code: number,
  message?: string | RegExp,
): void {
  expect({ status: response.status, code: response.body?.error_code }).toEqual({ status, code });
  expect(response.body.message).toEqual(expect.any(String));
  if (message !== undefined) expect(response.body.message).toMatch(message);
  expect(response.headers.get("content-type")).toBe(MEDIA_TYPE);
}

/** An Avro record schema with string fields (each with a default when `defaults`). */
export function avroRecord(name: string, fields: string[], defaults = false): Record<string, unknown> {
  return {
    type: "record",
    name,
    fields: fields.map((field) => ({ name: field, type: "string", ...(defaults && { default: "" }) })),
  };
}

/**
 * Starts a POST announcing `length` bytes and sends only the first 64 KiB: the answer must come
 * before the body is read (a refusal). Resolves with it, then drops the connection.
 */
export function postUnread(
  url: string,
  length: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": length, ...headers },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on("error", reject);
    req.write("x".repeat(64 * 1024));
  });
}

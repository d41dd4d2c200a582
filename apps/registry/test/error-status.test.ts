import { describe, expect, it } from "vitest";
import { errorLoggingPlugin, failedResponseStatus } from "../src/graphql/errors.ts";

interface FakeResponse {
  http: { status?: number };
  body: { kind: "single"; singleResult: { data?: Record<string, unknown> | null; errors?: unknown[] } };
}

/** What the plugin makes of one response: its HTTP status and the errors' extensions. */
async function send(data: Record<string, unknown> | null, codes: string[], status?: number) {
  const response: FakeResponse = {
    http: status === undefined ? {} : { status },
    body: {
      kind: "single",
      singleResult: { data, errors: codes.map((code) => ({ message: code, extensions: { code } })) },
    },
  };
  const hooks = await errorLoggingPlugin().requestDidStart!({} as never);
  await hooks!.willSendResponse!({ response, contextValue: { requestId: "r-1" } } as never);
  return response;
}

describe("HTTP status of a failed response", () => {
  it("is the error code's status when nothing was served", async () => {
    expect((await send(null, ["DATABASE_UNAVAILABLE"])).http.status).toBe(503);
    expect((await send(null, ["INTERNAL_SERVER_ERROR"])).http.status).toBe(500);
    expect((await send(null, ["QUERY_LIMIT_EXCEEDED"])).http.status).toBe(400);
    expect((await send({ streams: null }, ["UNAUTHENTICATED"])).http.status).toBe(401);
    expect((await send(null, ["FORBIDDEN"])).http.status).toBe(403);
    expect((await send(null, ["CHILD_UNAVAILABLE"])).http.status).toBe(502);
  });

  it("stays 200 for a partial answer", async () => {
    expect((await send({ a: 1, b: null }, ["DATABASE_UNAVAILABLE"])).http.status).toBeUndefined();
  });

  it("lets an outage outrank a refusal, and leaves codes that are not the registry's alone", () => {
    expect(
      failedResponseStatus([
        { extensions: { code: "INVALID_INPUT" } },
        { extensions: { code: "DATABASE_UNAVAILABLE" } },
      ]),
    ).toBe(503);
    expect(failedResponseStatus([{ extensions: { code: "GRAPHQL_PARSE_FAILED" } }, {}])).toBeUndefined();
  });

  it("keeps a status Apollo already set", async () => {
    expect((await send(null, ["INTERNAL_SERVER_ERROR"], 400)).http.status).toBe(400);
  });

  it("puts the request id on faults only", async () => {
    const response = await send(null, ["PROVIDER_UNAVAILABLE", "NOT_FOUND"]);
    const [fault, refusal] = response.body.singleResult.errors as { extensions: Record<string, unknown> }[];
    expect(fault!.extensions.requestId).toBe("r-1");
    expect(refusal!.extensions.requestId).toBeUndefined();
  });
});

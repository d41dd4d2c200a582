import { describe, expect, it } from "vitest";
import {
  createTestDatabase,
  databaseKinds,
  mutate,
  TEST_AUTHORIZATION,
  CREATE_STREAM,
  eventually,
} from "@stream-registry/testkit";
import { startTestRegistry, useTestRegistry } from "./support/test-registry.ts";

describe("HTTP surface (pglite)", () => {
  const registry = useTestRegistry("pglite");
  const at = (path: string) => new URL(path, registry().url);

  it("answers /healthz and /readyz", async () => {
    const health = await fetch(at("/healthz"));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });

    const ready = await fetch(at("/readyz"));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: { database: "ok", reconciler: "running" },
    });
  });

  it("redirects / to /graphql and answers unknown paths with a JSON 404", async () => {
    const root = await fetch(at("/"), { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/graphql");

    const missing = await fetch(at("/nope"));
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await missing.json()).toEqual({ error: "no route /nope; the API is at /graphql" });
  });

  it("rejects a body that is not JSON with 400 BAD_REQUEST", async () => {
    const response = await fetch(registry().url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: TEST_AUTHORIZATION },
      body: "{ not json",
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors.map((e) => e.extensions.code)).toEqual(["BAD_REQUEST"]);
  });

  it("reports a syntax error as GRAPHQL_PARSE_FAILED", async () => {
    const response = await registry().request("{ namespace { path ");
    expect(response.status).toBe(400);
    expect(response.errors?.map((e) => e.extensions?.code)).toEqual(["GRAPHQL_PARSE_FAILED"]);
  });

  it("echoes x-request-id and logs one line per request with it", async () => {
    const requestId = `probe-${Date.now()}`;
    const response = await fetch(registry().url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-request-id": requestId,
        authorization: TEST_AUTHORIZATION,
      },
      // No operationName in the body: the log takes it from the document, as Apollo resolves it.
      body: JSON.stringify({ query: "query Probe { namespace { path } }" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe(requestId);

    const line = await eventually(
      async () =>
        registry()
          .logs.map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === "request" && l.requestId === requestId),
      5_000,
      "the request log line",
    );
    expect(line).toMatchObject({ operationName: "Probe", status: 200, method: "POST", path: "/graphql" });
    expect(line.durationMs).toEqual(expect.any(Number));
  });

  it("serves Apollo Sandbox to browsers outside production", async () => {
    const response = await fetch(registry().url, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("embeddable-sandbox");
  });

  it("ignores an x-actor header: the change log names the verified principal", async () => {
    const r = registry();
    await mutate(
      r,
      CREATE_STREAM,
      { input: { name: "by_alice" } },
      { "x-actor": "root@admin (security-team)" },
    );
    const { changes } = await r.query<{
      changes: { nodes: { actor: string; action: string; entityKey: string }[] };
    }>("{ changes(first: 100) { nodes { actor action entityKey } } }");
    expect(changes.nodes.filter((c) => c.entityKey.endsWith("by_alice"))).toEqual([
      { actor: "token:admin", action: expect.any(String), entityKey: expect.stringContaining("by_alice") },
    ]);
  });
});

describe.each(databaseKinds)("a registry whose database is gone (%s, production)", (kind) => {
  it("masks the fault as INTERNAL_SERVER_ERROR with a request id, logs it, and fails /readyz", async () => {
    await using database = await createTestDatabase(kind, "ops");
    const registry = await startTestRegistry({ database, env: { NODE_ENV: "production" } });
    try {
      // A query first: pg-pool orphans a checkout still queued when end() runs (the reconciler's
      // first lease), and the registry could then never stop.
      await registry.query("{ streams { totalCount } }");
      await registry.db.close();
      const response = await registry.request("{ streams { totalCount } }");
      expect(response.errors).toHaveLength(1);
      const error = response.errors![0]!;
      expect(error).toEqual({
        message: "Internal server error",
        path: ["streams"],
        locations: expect.any(Array),
        extensions: { code: "INTERNAL_SERVER_ERROR", requestId: expect.any(String) },
      });
      // The caller gets only the request id; the log has the details under it.
      const logged = await eventually(
        async () =>
          registry.logs
            .map((l) => JSON.parse(l) as { msg: string; requestId?: string; err?: { stack?: string } })
            .find((l) => l.msg === "resolver failed" && l.requestId === error.extensions?.requestId),
        5_000,
        "the logged resolver error",
      );
      expect(logged.err?.stack).toMatch(/\n\s+at /);

      const ready = await fetch(new URL("/readyz", registry.url));
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        status: "not ready",
        checks: { database: expect.not.stringMatching(/^ok$/) },
      });
    } finally {
      await registry.stop().catch(() => {});
    }
  });
});

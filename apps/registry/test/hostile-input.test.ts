import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badStringCases, literalCases } from "./hostile/bad-strings.ts";
import type { HostileCase } from "./hostile/hostile-case.ts";
import { limitCases } from "./hostile/limit-cases.ts";
import { configCases, entityCases, httpCases, readCases } from "./hostile/shape-cases.ts";
import {
  migratedDataDir,
  TEST_AUTHORIZATION,
  postGraphQL,
  spawnRegistry,
  type RegistryProcess,
} from "@stream-registry/testkit";

const COUNTS = `{ streams { totalCount } clusters { totalCount } bindings { totalCount } changes { totalCount } }`;
const cases: HostileCase[] = [
  ...badStringCases,
  ...literalCases,
  ...limitCases,
  ...configCases,
  ...readCases,
  ...entityCases,
  ...httpCases,
];

/**
 * A registry as users run it (its own process, NODE_ENV=production) gets every hostile request:
 * each must be answered with a clear error code, never INTERNAL_SERVER_ERROR, the process must stay
 * up, and nothing may change.
 */
describe("hostile input", () => {
  let registry: RegistryProcess;
  let dataDir: string;
  let before: unknown;

  beforeAll(async () => {
    dataDir = await migratedDataDir("hostile");
    registry = await spawnRegistry({ NODE_ENV: "production", REGISTRY_DATA_DIR: dataDir, LOG_LEVEL: "info" });
    const seed = async (query: string, variables: Record<string, unknown>) => {
      const { data, errors } = await postGraphQL(registry.url, query, variables);
      expect(errors).toBeUndefined();
      expect(JSON.stringify(data)).toContain('"userErrors":[]');
    };
    await seed("mutation($i: DeclareClusterInput!) { declareCluster(input: $i) { userErrors { code } } }", {
      i: { name: "c1" },
    });
    await seed("mutation($i: CreateStreamInput!) { createStream(input: $i) { userErrors { code } } }", {
      i: {
        name: "s1",
        config: { "apache.kafka": { partitions: 3 }, "app.secrets": { password: "hunter2" } },
      },
    });
    await seed("mutation($i: CreateBindingInput!) { createBinding(input: $i) { userErrors { code } } }", {
      i: { stream: "s1", cluster: "c1" },
    });
    before = (await postGraphQL(registry.url, COUNTS)).data;
  }, 180_000);

  afterAll(async () => {
    registry?.kill("SIGTERM");
    await registry?.exited;
    await rm(dataDir, { recursive: true, force: true });
  });

  it("has at least 150 cases, each named once", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it.each(cases.map((c) => [c.name, c] as const))("answers %s with a clear error", async (_name, c) => {
    const codes = await send(registry.url, c);
    expect(codes).not.toContain("INTERNAL_SERVER_ERROR");
    expect(codes).toContain(c.code);
  });

  it("is still up, and nothing changed", async () => {
    const { data } = await postGraphQL(registry.url, COUNTS);
    expect(data).toEqual(before);
    expect((await postGraphQL(registry.url, "{ __typename }")).data).toEqual({ __typename: "Query" });
    expect(registry.entries().filter((e) => e.msg === "resolver failed")).toEqual([]);
  });
});

/** Sends one case over real HTTP; returns every code in its answer (errors and userErrors). */
async function send(url: string, c: HostileCase): Promise<string[]> {
  const [method, target] = (c.method ?? "POST").split(" ");
  const response = await fetch(target ? new URL(target, url) : url, {
    method,
    // As the registry's admin: what is refused here is the request, not who sent it.
    headers: { "content-type": c.contentType ?? "application/json", authorization: TEST_AUTHORIZATION },
    body:
      method === "GET" ? undefined : typeof c.request === "string" ? c.request : JSON.stringify(c.request),
  });
  const text = await response.text();
  let body: { errors?: { extensions?: { code?: string } }[]; data?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  const userErrorCodes = [...JSON.stringify(body.data ?? null).matchAll(/"code":"([A-Z_]+)"/g)].map(
    (m) => m[1]!,
  );
  return [...(body.errors ?? []).map((e) => e.extensions?.code ?? "(no code)"), ...userErrorCodes];
}

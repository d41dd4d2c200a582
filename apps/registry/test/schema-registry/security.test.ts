import { beforeAll, describe, expect, it } from "vitest";
import { mutate, TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import {
  avroRecord,
  basicAuth,
  expectError,
  postUnread,
  schemaRegistryClient,
  type RestResponse,
} from "../support/schema-registry-client.ts";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret userErrors { code field message } } }`;
const GRANT = `mutation ($input: GrantInput!) {
  grant(input: $input) { created userErrors { code field message } } }`;
const CHANGES = `{ changes(first: 50) { nodes { entityType entityKey action actor data } } }`;

const RATE_POINTS = 1000;

/**
 * Who may use the REST API (issue 12 with issue 11's authentication and grants), at a registry
 * process with authentication on: Basic credentials with an API token as password (what
 * Confluent's serializers send) or a Bearer token; reads need the reader role on the registry's
 * namespace, writes the writer role; each request spends one point of its principal's rate limit.
 */
describe("schema registry authentication and authorization", () => {
  const registry = useRegistryProcess("pglite", {
    REGISTRY_RATE_LIMIT_POINTS: String(RATE_POINTS),
    REGISTRY_RATE_LIMIT_WINDOW_S: "60",
  });
  const tokens: Record<string, string> = {};
  const sr = (authorization?: string) => schemaRegistryClient(registry().url, authorization);
  const as = (name: string) => sr(basicAuth(tokens[name]!));

  beforeAll(async () => {
    for (const name of ["reader", "writer", "nobody", "prefixed", "burst"]) {
      tokens[name] = (await mutate<{ secret: string }>(registry(), CREATE_TOKEN, { input: { name } })).secret;
    }
    await mutate(registry(), GRANT, { input: { principal: "token:reader", role: "reader" } });
    await mutate(registry(), GRANT, { input: { principal: "token:writer", role: "writer" } });
    await mutate(registry(), GRANT, { input: { principal: "token:burst", role: "reader" } });
    await mutate(registry(), GRANT, {
      input: { principal: "token:prefixed", role: "writer", streamPrefix: "widgets" },
    });
    await sr().register("guarded-value", avroRecord("Guarded", ["a"]));
  }, 60_000);

  function unauthenticated(response: RestResponse, reason: RegExp): void {
    expectError(response, 401, 401, reason);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('Basic realm="stream-registry"');
    expect(challenge).toContain('Bearer realm="stream-registry"');
  }

  it("accepts Basic credentials whose password is an API token, whatever the user, and Bearer tokens", async () => {
    expect((await sr(basicAuth(TEST_ADMIN_TOKEN, "")).get("/subjects")).body).toEqual(["guarded-value"]);
    expect((await sr(basicAuth(TEST_ADMIN_TOKEN, "any user")).get("/subjects")).status).toBe(200);
    expect((await sr(`Bearer ${TEST_ADMIN_TOKEN}`).get("/subjects")).status).toBe(200);
    expect((await sr(`basic ${basicAuth(TEST_ADMIN_TOKEN).slice(6)}`).get("/")).status).toBe(200);
  });

  it("refuses a request without a credential or with a bad one: 401 with Confluent's body and the challenges", async () => {
    unauthenticated(await sr("").get("/subjects"), /no Authorization header/);
    unauthenticated(await sr("").get("/"), /no Authorization header/);
    unauthenticated(await sr(basicAuth(`srt_${"A".repeat(43)}`)).get("/subjects"), /unknown token/);
    unauthenticated(await sr(basicAuth("hunter2")).get("/subjects"), /must be an API token/);
    unauthenticated(await sr("Basic !!!not-base64").get("/subjects"), /not base64/);
    unauthenticated(
      await sr(`Basic ${Buffer.from("no-colon").toString("base64")}`).get("/"),
      /user:password/,
    );
    unauthenticated(await sr("Bearer srt_forged").get("/subjects"), /token/);
    unauthenticated(await sr("Digest username=x").get("/subjects"), /Bearer/);
  });

  it("refuses a write without a credential before reading its body, and changes nothing", async () => {
    const huge = await postUnread(`${sr().base}/subjects/intruder-value/versions`, 20_000_000);
    expect(huge.status).toBe(401);
    expect(JSON.parse(huge.body)).toMatchObject({ error_code: 401 });
    unauthenticated(
      await sr("").post("/subjects/intruder-value/versions", { schema: '"string"' }),
      /no Authorization header/,
    );
    expect((await sr().get("/subjects?deleted=true")).body).toEqual(["guarded-value"]);
  });

  it("lets a reader read, look up and check, and refuses its writes with 403 (40301) naming the role", async () => {
    const reader = as("reader");
    expect((await reader.get("/subjects/guarded-value/versions/1")).status).toBe(200);
    const schema = JSON.stringify(avroRecord("Guarded", ["a"]));
    expect((await reader.post("/subjects/guarded-value", { schema })).status).toBe(200);
    expect(
      (await reader.post("/compatibility/subjects/guarded-value/versions/latest", { schema })).status,
    ).toBe(200);
    expect((await reader.get("/config")).status).toBe(200);
    const refusals = [
      await reader.post("/subjects/guarded-value/versions", { schema: '"string"' }),
      await reader.delete("/subjects/guarded-value/versions/1"),
      await reader.delete("/subjects/guarded-value"),
      await reader.put("/config", { compatibility: "NONE" }),
      await reader.put("/config/guarded-value", { compatibility: "NONE" }),
      await reader.delete("/config/guarded-value"),
      await reader.put("/mode", { mode: "READONLY" }),
    ];
    for (const refused of refusals) expectError(refused, 403, 40301, /needs the writer role on namespace \//);
    expect((await sr().get("/subjects/guarded-value/versions")).body).toEqual([1]);
    expect((await sr().get("/config")).body).toEqual({ compatibilityLevel: "BACKWARD" });
    expect((await sr().get("/mode")).body).toEqual({ mode: "READWRITE" });
  });

  it("lets a writer register and delete; the change log names it", async () => {
    const writer = as("writer");
    const registered = await writer.post("/subjects/written-value/versions", { schema: '"string"' });
    expect(registered.status).toBe(200);
    expect((await writer.delete("/subjects/written-value")).body).toEqual([1]);
    const { changes } = await registry().query<{
      changes: { nodes: { entityType: string; entityKey: string; action: string; actor: string }[] };
    }>(CHANGES);
    expect(changes.nodes.filter((c) => c.entityKey === "written-value")).toMatchObject([
      { entityType: "subject", action: "created", actor: "token:writer" },
      { entityType: "subject", action: "deleted", actor: "token:writer" },
    ]);
  });

  it("shows a principal without a grant nothing but / and the types", async () => {
    const nobody = as("nobody");
    expect((await nobody.get("/")).body).toEqual({});
    expect((await nobody.get("/schemas/types")).status).toBe(200);
    expectError(await nobody.get("/subjects"), 403, 40301, /needs the reader role/);
    expectError(await nobody.get("/schemas/ids/1"), 403, 40301);
    expectError(await nobody.get("/subjects/guarded-value/versions/1"), 403, 40301);
    // A grant narrowed to a stream prefix covers streams, not subjects.
    expectError(await as("prefixed").get("/subjects"), 403, 40301);
    expectError(
      await as("prefixed").post("/subjects/widgets-value/versions", { schema: '"int"' }),
      403,
      40301,
    );
  });

  it("spends one point of the principal's rate limit a request, then refuses with 429 and Retry-After", async () => {
    const burst = as("burst");
    const statuses: number[] = [];
    let refused: RestResponse | undefined;
    for (let sent = 0; sent < RATE_POINTS + 10 && !refused; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => burst.get("/schemas/types")));
      statuses.push(...batch.map((r) => r.status));
      refused = batch.find((r) => r.status === 429);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_POINTS);
    expectError(refused!, 429, 429, /rate limit: token:burst may spend 1000/);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Others keep their own allowance.
    expect((await as("reader").get("/")).status).toBe(200);
  });
});

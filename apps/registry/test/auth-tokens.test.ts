import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  mutate,
  postGraphQL,
  queryDatabase,
  TEST_AUTHORIZATION,
  CREATE_STREAM,
} from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret token { name subject groups state createdBy expiresAt } userErrors { code field message } } }`;
const REVOKE_TOKEN = `mutation ($input: RevokeApiTokenInput!) {
  revokeApiToken(input: $input) { token { name state revokedAt } userErrors { code field message } } }`;
const COUNT = "{ streams { totalCount } }";
const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { created userErrors { code field message } } }`;

interface Refusal {
  status: number;
  challenge: string | null;
  code: unknown;
  reason: unknown;
}

/** A request with `authorization` as given (undefined: none), as a stranger on the network sends it. */
async function refusal(url: string, authorization: string | undefined, query = COUNT): Promise<Refusal> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    code: body.errors?.[0]?.extensions?.code,
    reason: body.errors?.[0]?.extensions?.reason,
  };
}

const unauthenticated = (reason: string | RegExp) => ({
  status: 401,
  challenge: expect.stringMatching(
    /^Bearer realm="stream-registry", error="invalid_token", error_description="/,
  ),
  code: "UNAUTHENTICATED",
  reason: typeof reason === "string" ? reason : expect.stringMatching(reason),
});

describe("API tokens (a registry process in production, authentication on)", () => {
  const registry = useRegistryProcess("postgres", { NODE_ENV: "production", REGISTRY_AUTH: "on" });

  async function createToken(input: Record<string, unknown>) {
    return mutate<{ secret: string; token: Record<string, unknown> }>(registry(), CREATE_TOKEN, { input });
  }

  it("refuses a request without a credential with 401, UNAUTHENTICATED and a Bearer challenge", async () => {
    expect(await refusal(registry().url, undefined)).toEqual({
      status: 401,
      challenge: 'Bearer realm="stream-registry"',
      code: "UNAUTHENTICATED",
      reason: "no Authorization header",
    });
  });

  it("refuses unknown and malformed credentials, naming why", async () => {
    const { url } = registry();
    const unknown = `srt_${randomBytes(32).toString("base64url")}`;
    expect(await refusal(url, `Bearer ${unknown}`)).toEqual(unauthenticated("unknown token"));
    expect(await refusal(url, "Bearer srt_short")).toEqual(
      unauthenticated(/^malformed token: not an API token/),
    );
    expect(await refusal(url, "Bearer not-a-token")).toEqual(
      unauthenticated(/^malformed token: neither an API token \(srt_\.\.\.\) nor a JWT/),
    );
    expect(await refusal(url, `Basic ${Buffer.from("admin:admin").toString("base64")}`)).toEqual(
      unauthenticated('the Authorization header is not "Bearer <token>"'),
    );
    expect(await refusal(url, "Bearer a.b.c")).toEqual(unauthenticated(/^malformed token/));
    // A JWT when no OIDC issuer is configured.
    const jwt = `${Buffer.from('{"alg":"RS256"}').toString("base64url")}.${Buffer.from('{"iss":"https://idp"}').toString("base64url")}.sig`;
    expect(await refusal(url, `Bearer ${jwt}`)).toEqual(unauthenticated(/^JWTs are not accepted/));
  });

  it("changes nothing for a refused mutation", async () => {
    const before = (await registry().query<{ streams: { totalCount: number } }>(COUNT)).streams.totalCount;
    const refused = await postGraphQL(
      registry().url,
      CREATE_STREAM,
      { input: { name: "stranger_s" } },
      { authorization: "" },
    );
    expect(refused.status).toBe(401);
    expect((await registry().query<{ streams: { totalCount: number } }>(COUNT)).streams.totalCount).toBe(
      before,
    );
  });

  it("keeps /healthz and /readyz open", async () => {
    expect((await fetch(new URL("/healthz", registry().url))).status).toBe(200);
    expect((await fetch(new URL("/readyz", registry().url))).status).toBe(200);
  });

  it("makes a token whose value is shown once, authenticates with it, and names it in the change log, not x-actor", async () => {
    const made = await createToken({ name: "ci", groups: ["deployers", "deployers", "ops"] });
    expect(made.secret).toMatch(/^srt_[A-Za-z0-9_-]{43}$/);
    expect(made.token).toEqual({
      name: "ci",
      subject: "token:ci",
      groups: ["deployers", "ops"],
      state: "ACTIVE",
      createdBy: "token:admin",
      expiresAt: null,
    });
    // A writer through its group.
    await mutate(registry(), GRANT, { input: { principal: "group:deployers", role: "writer" } });
    const asCi = { authorization: `Bearer ${made.secret}`, "x-actor": "root@admin (security-team)" };
    await mutate(registry(), CREATE_STREAM, { input: { name: "by_ci" } }, asCi);
    // Only admins manage tokens.
    const refused = await postGraphQL(registry().url, CREATE_TOKEN, { input: { name: "mine" } }, asCi);
    expect(refused.errors?.map((e) => e.extensions?.code)).toEqual(["FORBIDDEN"]);
    const { changes } = await registry().query<{
      changes: { nodes: { entityKey: string; actor: string }[] };
    }>("{ changes(first: 500) { nodes { entityKey actor } } }");
    expect(changes.nodes.filter((c) => c.entityKey.endsWith("by_ci")).map((c) => c.actor)).toEqual([
      "token:ci",
    ]);
    expect(changes.nodes.find((c) => c.entityKey === "ci")).toEqual({
      entityKey: "ci",
      actor: "token:admin",
    });
    // Listed without its value, and its value is in no log line.
    const listed = await registry().query<{ apiTokens: Record<string, unknown>[] }>(
      "{ apiTokens { name state groups lastUsedAt } }",
    );
    expect(listed.apiTokens.map((t) => t.name)).toEqual(["admin", "ci"]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    expect(registry().logs.some((line) => line.includes(made.secret))).toBe(false);
  });

  it("refuses a revoked token at once, and a token whose expiry passed", async () => {
    const revoked = await createToken({ name: "to-revoke" });
    const authorization = `Bearer ${revoked.secret}`;
    expect((await postGraphQL(registry().url, COUNT, {}, { authorization })).status).toBe(200);
    const { token } = await mutate<{ token: { state: string } }>(registry(), REVOKE_TOKEN, {
      input: { name: "to-revoke" },
    });
    expect(token.state).toBe("REVOKED");
    expect(await refusal(registry().url, authorization)).toEqual(
      unauthenticated("token revoked (to-revoke)"),
    );

    const expiring = await createToken({ name: "short-lived", expiresInDays: 1 });
    expect(expiring.token.expiresAt).toEqual(expect.any(String));
    await queryDatabase(
      registry().databaseUrl!,
      `UPDATE api_token SET expires_at = now() - interval '1 minute' WHERE name = 'short-lived'`,
    );
    expect(await refusal(registry().url, `Bearer ${expiring.secret}`)).toEqual(
      unauthenticated(/^token expired \(short-lived, at /),
    );
  });

  it("lets a revoked token's name be taken again, refuses a live one's, and names bad input", async () => {
    const again = await createToken({ name: "to-revoke" });
    expect(again.token.state).toBe("ACTIVE");
    const taken = await postGraphQL<{ createApiToken: { userErrors: unknown[] } }>(
      registry().url,
      CREATE_TOKEN,
      {
        input: { name: "ci" },
      },
    );
    expect(taken.data?.createApiToken.userErrors).toEqual([
      {
        code: "ALREADY_EXISTS",
        field: ["input", "name"],
        message: expect.stringContaining('REVOKE TOKEN "ci"'),
      },
    ]);
    const bad = await postGraphQL<{ createApiToken: { userErrors: { field: string[] }[] } }>(
      registry().url,
      CREATE_TOKEN,
      { input: { name: "has space", groups: [""], expiresInDays: 0 } },
    );
    expect(bad.data?.createApiToken.userErrors.map((e) => e.field)).toEqual([
      ["input", "name"],
      ["input", "groups", "0"],
      ["input", "expiresInDays"],
    ]);
    const unknown = await postGraphQL<{ revokeApiToken: { userErrors: unknown[] } }>(
      registry().url,
      REVOKE_TOKEN,
      {
        input: { name: "nope" },
      },
    );
    expect(unknown.data?.revokeApiToken.userErrors).toEqual([
      { code: "NOT_FOUND", field: ["input", "name"], message: "there is no token named nope" },
    ]);
    // The testkit's own token is still the admin token.
    expect((await postGraphQL(registry().url, COUNT, {}, { authorization: TEST_AUTHORIZATION })).status).toBe(
      200,
    );
  });
});

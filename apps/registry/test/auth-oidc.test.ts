import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchRegistry,
  mutate,
  registryClient,
  testRegistryEnv,
  type LaunchedRegistry,
  CREATE_STREAM,
} from "@stream-registry/testkit";
import { startTestIssuer, type TestIssuer } from "./support/oidc-issuer.ts";

const AUDIENCE = "stream-registry-test";
const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { created userErrors { code field message } } }`;

/** The reason of a refused request, or "ok". */
async function outcome(url: string, token: string): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "{ __typename }" }),
  });
  if (response.status === 200) return "ok";
  const body = (await response.json()) as { errors: { extensions: { code: string; reason: string } }[] };
  expect(response.status).toBe(401);
  expect(body.errors[0]!.extensions.code).toBe("UNAUTHENTICATED");
  return body.errors[0]!.extensions.reason;
}

describe("OIDC tokens (a registry process in production, a local issuer)", () => {
  let issuer: TestIssuer;
  let other: TestIssuer;
  let registry: LaunchedRegistry;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "sr-oidc-"));
    issuer = await startTestIssuer(AUDIENCE);
    other = await startTestIssuer(AUDIENCE);
    registry = launchRegistry({
      ...testRegistryEnv,
      NODE_ENV: "production",
      REGISTRY_AUTH: "on",
      REGISTRY_DATA_DIR: dataDir,
      REGISTRY_OIDC_ISSUER: issuer.issuer,
      REGISTRY_OIDC_AUDIENCE: AUDIENCE,
      REGISTRY_OIDC_GROUPS_CLAIM: "roles",
    });
    url = (await registry.started) ?? "";
    if (!url) throw new Error(`registry exited during start-up:\n${registry.logs.join("\n")}`);
  }, 120_000);

  afterAll(async () => {
    if (registry?.running()) {
      registry.kill("SIGTERM");
      await registry.exited;
    }
    await issuer?.[Symbol.asyncDispose]();
    await other?.[Symbol.asyncDispose]();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("accepts the issuer's token: the change log names user:<sub>", async () => {
    const token = await issuer.sign({ sub: "alice", roles: ["deployers"] });
    expect(await outcome(url, token)).toBe("ok");
    const client = registryClient(url);
    // A writer through the group the issuer's roles claim names.
    await mutate(client, GRANT, { input: { principal: "group:deployers", role: "writer" } });
    await mutate(
      client,
      CREATE_STREAM,
      { input: { name: "by_alice" } },
      { authorization: `Bearer ${token}` },
    );
    const { changes } = await client.query<{ changes: { nodes: { entityKey: string; actor: string }[] } }>(
      "{ changes(first: 100) { nodes { entityKey actor } } }",
    );
    expect(changes.nodes.filter((c) => c.entityKey.endsWith("by_alice")).map((c) => c.actor)).toEqual([
      "user:alice",
    ]);
  });

  it("refuses an expired token, a wrong audience and a wrong issuer, naming why", async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    expect(await outcome(url, await issuer.sign({ iat: past - 60, exp: past }))).toBe("token expired");
    expect(await outcome(url, await issuer.sign({ aud: "another-service" }))).toBe(
      `wrong audience: the token is not for ${AUDIENCE}`,
    );
    expect(await outcome(url, await other.sign())).toBe(
      `wrong issuer: the token is from ${other.issuer}, not ${issuer.issuer}`,
    );
    // The other issuer's key, under this issuer's name and key id: a forgery.
    const { privateKey } = await generateKeyPair("RS256");
    expect(await outcome(url, await issuer.sign({}, { key: privateKey }))).toBe("bad signature");
    expect(await outcome(url, await issuer.sign({}, { key: privateKey, kid: "k9" }))).toBe(
      `no key of ${issuer.issuer} matches the token's key id`,
    );
    expect(await outcome(url, await issuer.sign({ sub: undefined }))).toBe("claim sub missing");
  });

  it('refuses "alg": "none" and shared-secret algorithms before fetching any key', async () => {
    const requests = issuer.jwksRequests();
    const unsecured = new UnsecuredJWT({ sub: "mallory", aud: AUDIENCE })
      .setIssuer(issuer.issuer)
      .setExpirationTime("1h")
      .encode();
    expect(await outcome(url, unsecured)).toMatch(/^algorithm "none" is not allowed/);
    const hmac = await issuer.sign({}, { key: new Uint8Array(32) as never, alg: "HS256" });
    expect(await outcome(url, hmac)).toMatch(/^algorithm "HS256" is not allowed/);
    expect(issuer.jwksRequests()).toBe(requests);
  });
});

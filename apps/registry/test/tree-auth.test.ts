import { randomUUID } from "node:crypto";
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  mutate,
  postGraphQL,
  startRegistryTree,
  TREE_TOKEN,
  type RegistryNode,
  CREATE_STREAM,
} from "@stream-registry/testkit";
import { registrySigner, type RegistrySigner } from "./support/registry-signer.ts";

const CHANGES = "{ changes(first: 200) { nodes { entityKey actor } } }";
const ENV = { REGISTRY_AUTH: "on", NODE_ENV: "production" };

/** What a registry answers a request with `authorization`: "ok", or the refusal's reason. */
async function outcome(node: RegistryNode, authorization: string | undefined, query = "{ __typename }") {
  const response = await postGraphQL(node.url, query, {}, { authorization: authorization ?? "" });
  if (response.status === 200 && !response.errors?.length) return "ok";
  expect(response.status).toBe(401);
  expect(response.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  return response.errors?.[0]?.extensions?.reason;
}

// A root on PostgreSQL (so that the test can sign as it, with its key) and a child /aws, both in
// production with authentication on: the tree works, and what a parent sends its child can be
// neither forged, replayed, stretched nor spoofed.
describe("across the tree, with authentication on", { timeout: 180_000 }, () => {
  let tree: Map<string, RegistryNode>;
  let root: RegistryNode;
  let aws: RegistryNode;
  let asRoot: RegistrySigner;
  let awsId: string;

  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws"], { kinds: { "/": "postgres" }, env: ENV });
    [root, aws] = [tree.get("/")!, tree.get("/aws")!];
    asRoot = await registrySigner(root.databaseUrl!);
    awsId = (await aws.query<{ registry: { id: string } }>("{ registry { id } }")).registry.id;
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
  });

  it("forwards a user's mutation with a token the root signs: the child names the user and the root", async () => {
    await mutate(
      root,
      CREATE_STREAM,
      { input: { name: "via_root", namespace: "/aws" } },
      // Neither is believed: an identity a caller names, and the tree's own headers from outside.
      { "x-actor": "root@admin (security-team)", "x-registry-hops": "16", "x-registry-budget-ms": "0" },
    );
    const { changes } = await aws.query<{ changes: { nodes: { entityKey: string; actor: string }[] } }>(
      CHANGES,
    );
    // The root's admin token, named with its issuer (issue 19): /aws's own "admin" is another.
    expect(changes.nodes.filter((c) => c.entityKey.endsWith("via_root")).map((c) => c.actor)).toEqual([
      "token:admin@/",
    ]);
  });

  it("lists and indexes the child's streams with the root's own tokens", async () => {
    await eventually(
      async () => {
        const { streams } = await root.query<{ streams: { nodes: { namespace: string; name: string }[] } }>(
          `{ streams(filter: { namespace: "/aws" }) { nodes { namespace name } } }`,
        );
        return streams.nodes.some((s) => s.name === "via_root") || undefined;
      },
      30_000,
      "the root's index to hold /aws's stream",
    );
    const live = await root.query<{ streams: { nodes: { name: string }[] } }>(
      `{ streams(filter: { namespace: "/aws" }, consistency: LIVE) { nodes { name } } }`,
    );
    expect(live.streams.nodes.map((s) => s.name)).toContain("via_root");
  });

  it("accepts a token the root signed once, and refuses it replayed", async () => {
    const token = await asRoot.sign({
      sub: "user:alice",
      aud: `registry:${awsId}`,
      act: { sub: `registry:${asRoot.registryId}` },
    });
    expect(await outcome(aws, `Bearer ${token}`)).toBe("ok");
    expect(await outcome(aws, `Bearer ${token}`)).toBe("token replayed: its id (jti) was used before");
  });

  it("refuses forged, expired, stretched, misaddressed and unsigned parent tokens, naming why", async () => {
    const aud = `registry:${awsId}`;
    const act = { sub: `registry:${asRoot.registryId}` };
    const now = Math.floor(Date.now() / 1000);
    const bearer = async (claims: Record<string, unknown>, options?: { forge?: boolean; kid?: string }) =>
      `Bearer ${await asRoot.sign(claims, options)}`;
    expect(await outcome(aws, await bearer({ sub: "user:alice", aud, act }, { forge: true }))).toBe(
      "bad signature",
    );
    expect(
      await outcome(aws, await bearer({ sub: "user:alice", aud, act }, { forge: true, kid: "not-pinned" })),
    ).toBe(`no key of registry:${asRoot.registryId} matches the token's key id`);
    expect(
      await outcome(aws, await bearer({ sub: "user:alice", aud, act, iat: now - 200, exp: now - 120 })),
    ).toBe("token expired");
    expect(await outcome(aws, await bearer({ sub: "user:alice", aud, act, exp: now + 3600 }))).toBe(
      "token lives longer than 60 s",
    );
    expect(
      await outcome(aws, await bearer({ sub: "user:alice", aud: `registry:${randomUUID()}`, act })),
    ).toBe(`wrong audience: the token is not for ${aud}`);
    expect(await outcome(aws, await bearer({ sub: "user:alice", aud, act, jti: undefined }))).toBe(
      "claim jti missing",
    );
    expect(
      await outcome(aws, await bearer({ sub: "user:alice", aud, act: { sub: "registry:someone-else" } })),
    ).toBe("the token's actor (act.sub) is not its issuer");
    expect(await outcome(aws, await bearer({ sub: `registry:${awsId}`, aud, act }))).toBe(
      `a parent cannot act for registry:${awsId}`,
    );
    // Another registry's name as issuer: neither the parent nor a child of /aws.
    expect(
      await outcome(aws, await bearer({ iss: `registry:${randomUUID()}`, sub: "user:alice", aud, act })),
    ).toMatch(
      /^wrong issuer: registry:[0-9a-f-]+ is neither this registry's parent nor one of its child registries$/,
    );
    const unsigned = new UnsecuredJWT({ sub: "user:alice", aud, act })
      .setIssuer(`registry:${asRoot.registryId}`)
      .setExpirationTime("1m")
      .encode();
    expect(await outcome(aws, `Bearer ${unsigned}`)).toMatch(/^algorithm "none" is not allowed/);
  });

  it("takes the parent's own token as the parent itself, for the change feed", async () => {
    const own = await asRoot.sign({ sub: `registry:${asRoot.registryId}`, aud: `registry:${awsId}` });
    const answer = await postGraphQL<{ changes: { nodes: unknown[] } }>(
      aws.url,
      CHANGES,
      {},
      { authorization: `Bearer ${own}` },
    );
    expect(answer.status).toBe(200);
    expect(answer.data?.changes.nodes.length).toBeGreaterThan(0);
  });

  it("lets a registration through without a credential, and nothing beside it", async () => {
    const register = `mutation ($input: RegisterChildRegistryInput!) {
      registerChildRegistry(input: $input) { child { name } userErrors { code field message } } }`;
    const input = {
      registryId: randomUUID(),
      name: "stranger",
      url: "http://127.0.0.1:9/graphql",
      sdl: "",
      version: "0",
      token: "not-the-enrollment-token",
    };
    const refused = await postGraphQL<{ registerChildRegistry: { userErrors: { code: string }[] } }>(
      root.url,
      register,
      { input },
      { authorization: "" },
    );
    expect(refused.status).toBe(200);
    expect(refused.data?.registerChildRegistry.userErrors.map((e) => e.code)).toEqual(["UNAUTHENTICATED"]);
    const mixed = `mutation ($input: RegisterChildRegistryInput!) {
      registerChildRegistry(input: $input) { child { name } } createStream(input: { name: "sneaky" }) { stream { name } } }`;
    const response = await postGraphQL(
      root.url,
      mixed,
      { input: { ...input, token: TREE_TOKEN } },
      { authorization: "" },
    );
    expect(response.status).toBe(401);
  });

  it("rotates the root's key: the child reads the new key when a token names it, and the tree works on", async () => {
    const rotated = await mutate<{ kid: string; keys: { kid: string }[] }>(
      root,
      "mutation { rotateRegistryKey { kid keys userErrors { code field message } } }",
    );
    expect(rotated.kid).not.toBe(asRoot.kid);
    expect(rotated.keys.map((k) => k.kid)).toEqual([rotated.kid, asRoot.kid]);
    await mutate(root, CREATE_STREAM, { input: { name: "after_rotation", namespace: "/aws" } });
    // The old key still verifies until the tokens it signed have expired.
    const old = await asRoot.sign({
      sub: "user:alice",
      aud: `registry:${awsId}`,
      act: { sub: `registry:${asRoot.registryId}` },
    });
    expect(await outcome(aws, `Bearer ${old}`)).toBe("ok");
  });

  it("rotates the child's key: it registers again, and the root pins the new key", async () => {
    const rotated = await mutate<{ kid: string }>(
      aws,
      "mutation { rotateRegistryKey { kid userErrors { code field message } } }",
    );
    await eventually(
      async () => {
        const { childRegistry } = await root.query<{ childRegistry: { keys: { kid: string }[] } | null }>(
          `query ($id: String!) { childRegistry(registryId: $id) { keys } }`,
          { id: awsId },
        );
        return childRegistry?.keys[0]?.kid === rotated.kid || undefined;
      },
      30_000,
      "the root to pin /aws's new key",
    );
  });
});

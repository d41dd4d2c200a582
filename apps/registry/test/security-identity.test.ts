import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  mutate,
  postGraphQL,
  seedChain,
  startRegistryTree,
  type GraphQLResponse,
  type RegistryNode,
} from "@stream-registry/testkit";
import { startTestIssuer, type TestIssuer } from "./support/oidc-issuer.ts";
import { registrySigner, type RegistrySigner } from "./support/registry-signer.ts";

const US = "/aws/us-reg1-xyz";
const AUDIENCE = "stream-registry-identity";
const ERRORS = "userErrors { code field message }";
const Q = {
  createStream: `mutation ($input: CreateStreamInput!) { createStream(input: $input) { stream { name } ${ERRORS} } }`,
  grant: `mutation ($input: GrantInput!) { grant(input: $input) { grant { principal role } ${ERRORS} } }`,
  revoke: `mutation ($input: RevokeInput!) { revoke(input: $input) { grant { principal } ${ERRORS} } }`,
  createToken: `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret ${ERRORS} } }`,
  streams: `query ($filter: StreamFilter) { streams(first: 100, filter: $filter, consistency: LIVE) { totalCount nodes { name } } }`,
  stream: `query ($name: String!, $namespace: String) { stream(name: $name, namespace: $namespace) { name } }`,
  grants: `query ($namespace: String) { grants(namespace: $namespace, first: 100) { nodes { principal role } } }`,
  changes: `{ changes(first: 500) { nodes { entityType entityKey actor } } }`,
};

/** Every code an answer carries: its errors' and its payloads' userErrors'. */
function codesOf(answer: GraphQLResponse<unknown>): string[] {
  const userErrors = [...JSON.stringify(answer.data ?? null).matchAll(/"code":"([A-Z_]+)"/g)];
  return [...(answer.errors ?? []).map((e) => String(e.extensions?.code)), ...userErrors.map((m) => m[1]!)];
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

// Issue 19, Must 1: a principal is (issuer, subject). A tree /, /aws, /aws/us-reg1-xyz in
// production with authentication on and one identity provider for all (the seed's Acme setup);
// no registry grants its ancestors' admins anything (the testkit's default does). Every registry's
// first admin token is named "admin", and the testkit's client sends each the same value: at a
// registry it is that registry's own admin; what the root forwards is the root's admin.
describe("identity is issuer-qualified across the tree", { timeout: 180_000 }, () => {
  let tree: Map<string, RegistryNode>;
  let root: RegistryNode;
  let aws: RegistryNode;
  let us: RegistryNode;
  let idp: TestIssuer;
  let asAws: RegistrySigner;
  let usId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    tree = await startRegistryTree(["/", "/aws", US], {
      kinds: { "/aws": "postgres" },
      env: {
        NODE_ENV: "production",
        REGISTRY_AUTH: "on",
        REGISTRY_OIDC_ISSUER: idp.issuer,
        REGISTRY_OIDC_AUDIENCE: AUDIENCE,
      },
      ancestorAdmins: false,
    });
    [root, aws, us] = [tree.get("/")!, tree.get("/aws")!, tree.get(US)!];
    asAws = await registrySigner(aws.databaseUrl!);
    usId = (await us.query<{ registry: { id: string } }>("{ registry { id } }")).registry.id;
    const token = async (at: RegistryNode, name: string, groups: string[] = []) =>
      (await mutate<{ secret: string }>(at, Q.createToken, { input: { name, groups } })).secret;
    // /aws/us's own writer, and a token of the root's with the same name.
    tokens.usWriter = await token(us, "us-writer");
    await mutate(us, Q.grant, { input: { principal: "token:us-writer", role: "writer" } });
    tokens.rootUsWriter = await token(root, "us-writer");
    // An admin of /aws makes a token with a group that is an admin group at /aws/us.
    tokens.awsBot = await token(aws, "aws-bot", ["us-platform"]);
    await mutate(aws, Q.grant, { input: { principal: "token:aws-bot", role: "admin" } });
    await mutate(us, Q.grant, { input: { principal: "group:us-platform", role: "admin" } });
    await mutate(us, Q.grant, { input: { principal: "group:us-writers", role: "writer" } });
    await seedChain(us).stream({ name: "us_1" });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
    await idp?.[Symbol.asyncDispose]();
  });

  it("does not make the root's admin an admin of /aws/us, until /aws/us grants token:admin@/", async () => {
    const refused = await root.request(Q.createStream, { input: { namespace: US, name: "by_root" } });
    expect(codesOf(refused)).toEqual(["FORBIDDEN"]);
    const grantRefused = await root.request(Q.grant, {
      input: { namespace: US, principal: "token:admin@/", role: "admin" },
    });
    expect(codesOf(grantRefused)).toEqual(["FORBIDDEN"]);

    const granted = await mutate<{ grant: { principal: string } }>(us, Q.grant, {
      input: { principal: "token:admin@/", role: "admin" },
    });
    expect(granted.grant.principal).toBe("token:admin@/");
    await mutate(root, Q.createStream, { input: { namespace: US, name: "by_root" } });
    // The change log at /aws/us names the root's admin and the registry that passed it on.
    const { changes } = await us.query<{ changes: { nodes: { entityKey: string; actor: string }[] } }>(
      Q.changes,
    );
    const actors = (key: string) =>
      changes.nodes.filter((c) => c.entityKey.endsWith(key)).map((c) => c.actor);
    expect(actors("by_root")).toEqual(["token:admin@/ via /aws"]);
    expect(actors("to token:admin@/")).toEqual(["token:admin"]);
    const { grants } = await us.query<{ grants: { nodes: { principal: string; role: string }[] } }>(Q.grants);
    expect(grants.nodes).toContainEqual({ principal: "token:admin@/", role: "ADMIN" });
    await mutate(us, Q.revoke, { input: { principal: "token:admin@/", role: "admin" } });
    const again = await root.request(Q.createStream, { input: { namespace: US, name: "by_root_2" } });
    expect(codesOf(again)).toEqual(["FORBIDDEN"]);
  });

  it("gives a root token named like /aws/us's writer token none of its grants", async () => {
    const own = await us.request<{ streams: { totalCount: number } }>(
      Q.streams,
      {},
      bearer(tokens.usWriter!),
    );
    expect(own.data?.streams.totalCount).toBeGreaterThan(0);
    const asRootToken = bearer(tokens.rootUsWriter!);
    const listed = await root.request<{ streams: { totalCount: number; nodes: unknown[] } }>(
      Q.streams,
      { filter: { namespace: US } },
      asRootToken,
    );
    expect(listed.data?.streams).toEqual({ totalCount: 0, nodes: [] });
    const lookup = await root.request(Q.stream, { name: "us_1", namespace: US }, asRootToken);
    expect(lookup.data).toEqual({ stream: null });
    const write = await root.request(
      Q.createStream,
      { input: { namespace: US, name: "by_twin" } },
      asRootToken,
    );
    expect(codesOf(write)).toEqual(["FORBIDDEN"]);
  });

  it("honours no group a token of /aws carries at /aws/us: its admin cannot grant itself /aws/us", async () => {
    const asBot = bearer(tokens.awsBot!);
    const grant = await aws.request(
      Q.grant,
      { input: { namespace: US, principal: "token:aws-bot@/aws", role: "admin" } },
      asBot,
    );
    expect(codesOf(grant)).toEqual(["FORBIDDEN"]);
    const write = await aws.request(Q.createStream, { input: { namespace: US, name: "by_bot" } }, asBot);
    expect(codesOf(write)).toEqual(["FORBIDDEN"]);
    const { grants } = await us.query<{ grants: { nodes: { principal: string }[] } }>(Q.grants);
    expect(grants.nodes.map((g) => g.principal)).not.toContain("token:aws-bot@/aws");
  });

  it("keeps the groups of a user of its own identity provider, forwarded through the tree", async () => {
    const alice = await idp.sign({ sub: "alice", groups: ["us-writers"] });
    await mutate(root, Q.createStream, { input: { namespace: US, name: "by_alice" } }, bearer(alice));
    const { changes } = await us.query<{ changes: { nodes: { entityKey: string; actor: string }[] } }>(
      Q.changes,
    );
    const actor = changes.nodes.find((c) => c.entityKey.endsWith("by_alice"))?.actor;
    expect(actor).toBe("user:alice via /, /aws");
  });

  it("refuses a parent's token that names a token of the child's own as the one it acts for", async () => {
    const outcome = async (claims: Record<string, unknown>) => {
      const token = await asAws.sign({
        sub: "token:admin",
        aud: `registry:${usId}`,
        act: { sub: `registry:${asAws.registryId}` },
        ...claims,
      });
      const answer = await postGraphQL(us.url, "{ __typename }", {}, bearer(token));
      return answer.status === 200 ? "ok" : answer.errors?.[0]?.extensions?.reason;
    };
    expect(await outcome({ sub_iss: `registry:${usId}` })).toBe(
      `the subject's issuer (sub_iss) registry:${usId} is not the registry the request entered the tree at (registry:${asAws.registryId})`,
    );
    expect(
      await outcome({ act: { sub: `registry:${asAws.registryId}`, act: { sub: `registry:${usId}` } } }),
    ).toBe(`claim act not valid: registry:${usId} acts twice or is this registry`);
    // What /aws may say: its own admin, which /aws/us grants nothing.
    expect(await outcome({ sub_iss: `registry:${asAws.registryId}` })).toBe("ok");
    const write = await aws.request(Q.createStream, { input: { namespace: US, name: "by_aws_admin" } });
    expect(codesOf(write)).toEqual(["FORBIDDEN"]);
  });
});

import { randomBytes } from "node:crypto";
import {
  mutate,
  startRegistryTree,
  TEST_ADMIN_TOKEN,
  TREE_TOKEN,
  type RegistryNode,
} from "@stream-registry/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENV, TREE } from "./support/seed-tree.ts";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) {
  createApiToken(input: $input) { secret userErrors { code field message } } }`;
const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { created userErrors { code field message } } }`;
const DECLARE_CLUSTER = `mutation ($input: DeclareClusterInput!) {
  declareCluster(input: $input) { cluster { name } userErrors { code field message } } }`;
const REGISTER_CHILD = `mutation ($input: RegisterChildRegistryInput!) {
  registerChildRegistry(input: $input) { userErrors { code field message } } }`;

/** A value no registry could have made up: found in a log only if the log kept it. */
const secret = (label: string) => `${label}-${randomBytes(12).toString("hex")}`;

/** POSTs `{ __typename }` to `url` with `headers`; the HTTP status. */
async function post(url: string, headers: Record<string, string>, body = { query: "{ __typename }" }) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Issue 19, Must 6: a production tree is used with every kind of credential a registry sees (admin
 * tokens of each registry, a token in a query string, Basic credentials to /schema-registry, an
 * enrollment token, a cluster's password, a URL with a password in it), right and wrong; then
 * every line every registry process wrote is searched for every value used. None is there.
 */
describe("the logs of a production tree", () => {
  let nodes: Map<string, RegistryNode>;
  beforeAll(async () => {
    nodes = await startRegistryTree(TREE.slice(0, 3), {
      kinds: { "/": "postgres", "/aws": "postgres" },
      env: { ...ENV, NODE_ENV: "production" },
    });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([...(nodes?.values() ?? [])].map((node) => node.dispose()));
  });

  it("hold none of the credentials the tree was used with", async () => {
    const used = new Map<string, string>([
      ["the testkit's admin token", TEST_ADMIN_TOKEN],
      ["the tree's enrollment token", TREE_TOKEN],
    ]);
    for (const node of nodes.values()) {
      // An admin token of each registry, used as a bearer token, in a query string, and as the
      // password of Basic credentials to the schema registry.
      const { secret: token } = await mutate<{ secret: string }>(node, CREATE_TOKEN, {
        input: { name: "ops" },
      });
      await mutate(node, GRANT, { input: { principal: "token:ops", role: "admin" } });
      used.set(`${node.path}'s ops token`, token);
      const base = node.url.replace(/\/graphql$/, "");
      expect(await post(node.url, { authorization: `Bearer ${token}` })).toBe(200);
      expect(await post(`${node.url}?access_token=${token}&x=1`, {})).toBe(401);
      expect(await post(`${node.url}?token=${encodeURIComponent(token)}`, {})).toBe(401);
      const basic = Buffer.from(`ci:${token}`).toString("base64");
      used.set(`${node.path}'s Basic credentials`, basic);
      const subjects = await fetch(`${base}/schema-registry/subjects`, {
        headers: { authorization: `Basic ${basic}` },
      });
      expect(subjects.status).toBe(200);
      const wrong = secret("srt_wrongtoken");
      used.set(`a wrong token at ${node.path}`, wrong);
      expect(await post(node.url, { authorization: `Bearer ${wrong}` })).toBe(401);
      expect(await post(`${node.url}?api_key=${wrong}`, { authorization: `Bearer ${wrong}` })).toBe(401);
      const wrongBasic = Buffer.from(`ci:${wrong}`).toString("base64");
      used.set(`wrong Basic credentials at ${node.path}`, wrongBasic);
      const refused = await fetch(`${base}/schema-registry/subjects?password=${wrong}`, {
        headers: { authorization: `Basic ${wrongBasic}` },
      });
      expect(refused.status).toBe(401);
    }

    // A wrong enrollment token, and a URL with a password in it, offered to the root.
    const root = nodes.get("/")!;
    const enrollment = secret("enroll");
    used.set("a wrong enrollment token", enrollment);
    const urlPassword = secret("urlpass");
    used.set("a URL's password", urlPassword);
    const registration = await post(root.url, {}, {
      query: REGISTER_CHILD,
      variables: {
        input: {
          registryId: crypto.randomUUID(),
          name: "stranger",
          url: `http://admin:${urlPassword}@127.0.0.1:9/graphql`,
          version: "0.1.0",
          sdl: "type Query { a: Int }",
          token: enrollment,
          keys: [],
        },
      },
    } as never);
    expect(registration).toBeGreaterThanOrEqual(200);

    // A cluster whose config holds a password and a URL with one, declared where nothing answers.
    const clusterPassword = secret("clusterpass");
    used.set("a cluster's password", clusterPassword);
    const schemaPassword = secret("schemapass");
    used.set("a schema registry URL's password", schemaPassword);
    const declared = await root.request(DECLARE_CLUSTER, {
      input: {
        name: "secretive",
        provider: "kafka",
        config: {
          "apache.kafka": {
            "bootstrap.servers": "127.0.0.1:9",
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.username": "svc",
            "sasl.password": clusterPassword,
            "socket.connection.setup.timeout.ms": 300,
            "request.timeout.ms": 300,
            "default.api.timeout.ms": 800,
          },
          "schema.registry": { url: `http://svc:${schemaPassword}@127.0.0.1:9` },
        },
      },
    });
    expect(declared.status).toBe(200);

    const leaks: string[] = [];
    for (const node of nodes.values()) {
      const lines = node.logs();
      expect(lines.length).toBeGreaterThan(10);
      for (const [what, value] of used) {
        const line = lines.find((text) => text.includes(value));
        if (line !== undefined) leaks.push(`${node.path} logged ${what}: ${line.slice(0, 400)}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

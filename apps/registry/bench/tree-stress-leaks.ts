import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import {
  eventually,
  everyRow,
  mutate,
  TEST_AUTHORIZATION,
  type RegistryNode,
} from "@stream-registry/testkit";
import { Q } from "../test/support/security-corpus.ts";
import { bearer, type Tally } from "./tree-stress-tally.ts";
import type { TreeWorld } from "./tree-stress-world.ts";

const ADMIN = { authorization: TEST_AUTHORIZATION };
const US = "/aws/us";
const STREAM = `query ($namespace: String, $name: String!) { stream(namespace: $namespace, name: $name) { name config } }`;

/** A value no registry could have made up, to look for. */
const secret = (label: string) => `SEKRET-${label}-${randomUUID().slice(0, 8)}`;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Values secret by their key's spelling or by their shape, under keys that say nothing. */
function oddSecrets() {
  const jwt = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub: secret("jwt") })}.${randomUUID().replaceAll("-", "")}`;
  const values = {
    auth: secret("auth"),
    cred: secret("cred"),
    Pass: secret("Pass"),
    keytab: secret("keytab"),
    "ssl.key": secret("ssl-key"),
    pem: secret("pem"),
    bearer: secret("bearer"),
    // A Basic credential is base64 of user:password; "Basic <anything>" is not one.
    basic: Buffer.from(`svc:${secret("basic")}`).toString("base64"),
    userinfo: secret("userinfo"),
    jwt,
  };
  const config = {
    odd: {
      auth: values.auth,
      cred: values.cred,
      Pass: values.Pass,
      keytab: values.keytab,
      "ssl.key": values["ssl.key"],
      notes: `-----BEGIN PRIVATE KEY-----\n${values.pem}\n-----END PRIVATE KEY-----`,
      header: `Bearer ${values.bearer}`,
      other: `Basic ${values.basic}`,
      link: `https://svc:${values.userinfo}@kafka.example:8443/`,
      session: jwt,
      host: "kafka.example",
    },
  };
  return { values, config };
}

/** Throws naming every value of `values` that `text` holds. */
function noneIn(text: string, values: Record<string, string>) {
  expect(
    Object.entries(values)
      .filter(([, value]) => text.includes(value))
      .map(([key]) => key),
  ).toEqual([]);
}

/**
 * Finding 5: a stream at /aws/us holds credentials under other spellings and by their shape;
 * none comes back from its declaration, its reads (at /aws/us and through the root), any change
 * log or index of the tree, nor sits in clear in any database of the path.
 */
export async function secretProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "secrets by name and by value (finding 5)";
  const { root, aws, us } = t;
  const { values, config } = oddSecrets();
  for (const [key, value] of Object.entries(values)) t.used.set(`the stream's value under ${key}`, value);
  const alice = bearer(await t.w.issuer.sign({ sub: "alice", groups: ["us-writers"] }));

  await tally.probe(c, "the createStream answer", async () => {
    const answer = await us.request(Q.createStream, { input: { name: "odd_secrets", config } });
    expect(JSON.stringify(answer.data)).toContain("kafka.example");
    noneIn(JSON.stringify(answer), values);
  });
  const read = async (node: RegistryNode, namespace: string | undefined, headers: Record<string, string>) => {
    const answer = await node.request(STREAM, { namespace, name: "odd_secrets" }, headers);
    expect(JSON.stringify(answer.data)).toContain("kafka.example");
    noneIn(JSON.stringify(answer), values);
  };
  await tally.probe(c, "a read at /aws/us", () => read(us, undefined, ADMIN));
  await tally.probe(c, "a read through the root and /aws", () => read(root, US, alice));
  await tally.probe(c, "a LIVE list through the root", async () => {
    const answer = await root.request(Q.streams, { filter: { namespace: US }, consistency: "LIVE" }, alice);
    expect(JSON.stringify(answer.data)).toContain("odd_secrets");
    noneIn(JSON.stringify(answer), values);
  });
  for (const [label, node] of [
    ["/aws/us", us],
    ["/aws", aws],
    ["the root", root],
  ] as const) {
    await tally.probe(c, `${label}'s change log`, async () => {
      const text = await eventually(
        async () => {
          const answer = JSON.stringify(await node.query(Q.changes));
          return answer.includes("odd_secrets") ? answer : undefined;
        },
        30_000,
        `${label}'s change log to hold odd_secrets`,
      );
      noneIn(text, values);
    });
  }
  await tally.probe(c, "the root's index", async () => {
    const text = await eventually(
      async () => {
        const answer = JSON.stringify(
          await root.query(Q.streams, { filter: { namespace: US }, consistency: "INDEX" }),
        );
        return answer.includes("odd_secrets") ? answer : undefined;
      },
      30_000,
      "the root's index to hold odd_secrets",
    );
    noneIn(text, values);
  });
  for (const [label, node] of [
    ["/aws/us", us],
    ["/aws", aws],
    ["the root", root],
  ] as const)
    await tally.probe(c, `${label}'s database, at rest`, async () =>
      noneIn(await everyRow(node.databaseUrl!), values),
    );
  await tally.probe(
    c,
    "twin: a writer keeps the stream's secrets by writing its read config back",
    async () => {
      const { stream } = await us.query<{ stream: { config: unknown } }>(STREAM, { name: "odd_secrets" });
      await mutate(us, Q.updateStream, { input: { name: "odd_secrets", config: stream.config } });
    },
  );
}

/** POSTs `{ __typename }` to `url` without an Authorization header; the HTTP status. */
async function statusOf(url: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"query":"{ __typename }"}',
  });
  await response.arrayBuffer();
  return response.status;
}

/** Finding 6, the requests: tokens in query strings are refused (and must not be logged: logProbes). */
export async function queryStringProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "logs (finding 6)";
  const tokens: [string, RegistryNode, string][] = [
    ["the root", t.root, t.tokens.rootUsWriter],
    ["/aws", t.aws, t.tokens.awsBot],
    ["/aws/us", t.us, t.tokens.usWriter],
    ["/gcp", t.gcp, t.w.tokens.reader],
  ];
  for (const [label, node, token] of tokens)
    for (const parameter of ["access_token", "token", "api_key"])
      await tally.probe(c, `?${parameter}=<a token> at ${label} is refused`, async () =>
        expect(await statusOf(`${node.url}?${parameter}=${encodeURIComponent(token)}&x=1`)).toBe(401),
      );
}

/** Finding 6, the logs: no line any process of the run wrote holds a credential or secret it used. */
export async function logProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "logs (finding 6)";
  const logs = new Map<string, string[]>(t.earlierLogs);
  for (const node of [t.root, t.aws, t.w.aws2, t.us, t.gcp]) logs.set(node.path, node.logs());
  for (const [label, lines] of logs)
    await tally.probe(
      c,
      `${label}'s ${lines.length} log lines hold none of ${t.used.size} credentials and secrets`,
      () => {
        expect(lines.length).toBeGreaterThan(10);
        const leaks = [...t.used]
          .filter(([, value]) => lines.some((line) => line.includes(value)))
          .map(([what]) => what);
        expect(leaks).toEqual([]);
      },
    );
}

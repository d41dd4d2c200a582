import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually, mutate, startRegistryTree, type RegistryNode } from "@stream-registry/testkit";
import { ENV } from "./support/seed-tree.ts";

// Issue 19, finding 5: values under other spellings (auth, cred, Pass, keytab, ssl.key) or shaped
// like credentials (a PEM key, "Bearer <x>") under a neutral key came back in clear from the
// declare answer, reads, every ancestor's change log and index, and sat in clear at rest. Real
// registry processes in production mode, each on its own PostgreSQL database.

vi.setConfig({ testTimeout: 180_000 });

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const S = {
  auth: "SEKRET-auth-19a1",
  cred: "SEKRET-cred-19a2",
  pass: "SEKRET-pass-19a3",
  keytab: "SEKRET-keytab-19a4",
  sslKey: "SEKRET-sslkey-19a5",
  pem: "SEKRETpemBody19a6",
  bearer: "SEKRET-bearer-19a7",
  jwt: "SEKRET-jwt-sig-19a8",
  priv: "SEKRET-private-19a9",
  basic: Buffer.from("svc:SEKRET-basic-19b0").toString("base64"),
  signature: "SEKRET-signature-19b1",
};
const SECRETS = [...Object.values(S), "SEKRET-basic-19b0"];
const odd = (prefix: string) => ({
  auth: `${S.auth}${prefix}`,
  cred: `${S.cred}${prefix}`,
  Pass: `${S.pass}${prefix}`,
  keytab: `${S.keytab}${prefix}`,
  "ssl.key": `${S.sslKey}${prefix}`,
  notes: `-----BEGIN PRIVATE KEY-----\n${S.pem}${prefix}\n-----END PRIVATE KEY-----`,
  header: `Bearer ${S.bearer}${prefix}`,
  owner: "billing",
});
const FP = /^\*{8}:[0-9a-f]{12}$/;

const READS = `{
  streams(first: 50, consistency: INDEX) { nodes { namespace name config producerConfig consumerConfig } }
  clusters(first: 50, consistency: INDEX) { nodes { namespace name config } }
  bindings(first: 50, consistency: INDEX) { nodes { fqn config } }
  changes(first: 500) { nodes { namespace entityType entityKey data } }
}`;
const OWN_READS = READS.replaceAll(", consistency: INDEX", "");

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret);
}

/** The whole database as pg_dump writes it: every row of every table, in clear text. */
function dump(node: RegistryNode): string {
  const result = spawnSync("pg_dump", ["--data-only", node.databaseUrl!], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr}`);
  return result.stdout;
}

describe("secrets by other spellings and by shape, across a tree (production)", () => {
  let root: RegistryNode;
  let aws: RegistryNode;
  beforeAll(async () => {
    const tree = await startRegistryTree(["/", "/aws"], {
      kinds: { "/": "postgres", "/aws": "postgres" },
      env: { ...ENV, NODE_ENV: "production" },
    });
    [root, aws] = [tree.get("/")!, tree.get("/aws")!];
  }, 300_000);
  afterAll(async () => {
    await Promise.all([root, aws].filter(Boolean).map((node) => node.dispose()));
  });

  it("hides them in every answer, in the child's and the parent's change log and index, and at rest; a write-back keeps them", async () => {
    const declared = await mutate<{ cluster: { config: Record<string, Record<string, string>> } }>(
      aws,
      `mutation ($input: DeclareClusterInput!) { declareCluster(input: $input) { cluster { config } userErrors { code field message } } }`,
      { input: { name: "c1", provider: "registry-only", config: { odd: odd("c") } } },
    );
    const created = await mutate<{ stream: { config: Record<string, Record<string, string>> } }>(
      aws,
      `mutation ($input: CreateStreamInput!) { createStream(input: $input) { stream { config } userErrors { code field message } } }`,
      {
        input: {
          name: "orders",
          config: {
            odd: { ...odd("s"), session: `${b64url({ alg: "RS256" })}.${b64url({ sub: "x" })}.${S.jwt}` },
          },
          producerConfig: { client: { signature: S.signature } },
        },
      },
    );
    await mutate(
      aws,
      `mutation ($input: CreateBindingInput!) { createBinding(input: $input) { binding { fqn } userErrors { code field message } } }`,
      {
        input: {
          stream: "orders",
          cluster: "c1",
          config: { odd: { private: S.priv, blob: `Basic ${S.basic}` } },
        },
      },
    );
    expectNoSecret(JSON.stringify([declared, created]), "the declare and create answers");
    expect(created.stream.config.odd).toMatchObject({
      auth: expect.stringMatching(FP),
      notes: expect.stringMatching(FP),
    });

    // The root's index holds the child's stream, cluster and binding.
    const atRoot = await eventually(
      async () => {
        const read = await root.query<{ bindings: { nodes: unknown[] }; clusters: { nodes: unknown[] } }>(
          READS,
        );
        return read.bindings.nodes.length === 1 && read.clusters.nodes.length === 1 ? read : undefined;
      },
      60_000,
      "the root's index to hold /aws's objects",
    );
    expect(JSON.stringify(atRoot)).toContain("orders");
    expectNoSecret(JSON.stringify(atRoot), "the root's answers (index, change log)");
    expectNoSecret(JSON.stringify(await aws.query(OWN_READS)), "/aws's answers");
    for (const node of [aws, root]) {
      const rows = dump(node);
      expect(rows).toContain("orders");
      expectNoSecret(rows, `${node.path}'s database`);
    }

    // What was read, written back with one public change, keeps its secrets: same fingerprints.
    const { stream } = await aws.query<{ stream: { config: Record<string, Record<string, string>> } }>(
      `{ stream(name: "orders") { config } }`,
    );
    const back = { odd: { ...stream.config.odd, owner: "ops" } };
    const updated = await mutate<{ stream: { config: unknown; generation: number } }>(
      aws,
      `mutation ($input: UpdateStreamInput!) { updateStream(input: $input) { stream { config generation } userErrors { code field message } } }`,
      { input: { name: "orders", config: back } },
    );
    expect(updated.stream).toEqual({ config: { odd: back.odd }, generation: 2 });
  });
});

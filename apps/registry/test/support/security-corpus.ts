import { expect } from "vitest";
import {
  eventually,
  mutate,
  queryDatabase,
  settled,
  startRegistryTree,
  TEST_AUTHORIZATION,
  type RegistryNode,
} from "@stream-registry/testkit";
import { startTestIssuer, type TestIssuer } from "./oidc-issuer.ts";
import { registrySigner, type RegistrySigner } from "./registry-signer.ts";

/**
 * The hostile-request corpus's world (issue 11, Must 6): a tree of three registry processes in
 * production with authentication on (/ and /aws on PostgreSQL, so that a test can sign as them;
 * /aws2 on PGlite, a sibling whose name starts like /aws), an OIDC issuer they trust and one they
 * do not, API tokens with grants, and secrets planted in every kind of config map.
 */

export const AUDIENCE = "stream-registry-corpus";

/** Secret values planted in config maps: none may ever appear in any answer. */
export const SECRETS = {
  cluster: "SEKRET-cluster-vault-token-5b1f",
  jaas: "SEKRET-jaas-password-77aa",
  stream: "SEKRET-stream-db-password-9c2e",
  url: "SEKRET-url-password-03d4",
  binding: "SEKRET-binding-api-key-e81a",
  aws: "SEKRET-aws-stream-password-4410",
  // Issue 19: under other spellings, and shaped like credentials under neutral keys.
  pass: "SEKRET-aws-Pass-19c1",
  pem: "SEKRETawsPemBody19c2",
  bearer: "SEKRET-aws-bearer-19c3",
} as const;
export const SECRET_VALUES: readonly string[] = Object.values(SECRETS);

export const USER_ERRORS = "userErrors { code field message }";
export const Q = {
  createStream: `mutation ($input: CreateStreamInput!) { createStream(input: $input) { stream { namespace name config } ${USER_ERRORS} } }`,
  updateStream: `mutation ($input: UpdateStreamInput!) { updateStream(input: $input) { stream { name config generation } ${USER_ERRORS} } }`,
  deleteStream: `mutation ($input: DeleteStreamInput!) { deleteStream(input: $input) { deleted ${USER_ERRORS} } }`,
  createBinding: `mutation ($input: CreateBindingInput!) { createBinding(input: $input) { binding { fqn config } ${USER_ERRORS} } }`,
  updateBinding: `mutation ($input: UpdateBindingInput!) { updateBinding(input: $input) { binding { fqn config } ${USER_ERRORS} } }`,
  deleteBinding: `mutation ($input: DeleteBindingInput!) { deleteBinding(input: $input) { binding { fqn } ${USER_ERRORS} } }`,
  declareCluster: `mutation ($input: DeclareClusterInput!) { declareCluster(input: $input) { created cluster { name config } ${USER_ERRORS} } }`,
  deleteCluster: `mutation ($input: DeleteClusterInput!) { deleteCluster(input: $input) { cluster { name } ${USER_ERRORS} } }`,
  grant: `mutation ($input: GrantInput!) { grant(input: $input) { created grant { principal role namespace streamPrefix } ${USER_ERRORS} } }`,
  revoke: `mutation ($input: RevokeInput!) { revoke(input: $input) { grant { principal role namespace } ${USER_ERRORS} } }`,
  createApiToken: `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { name groups } ${USER_ERRORS} } }`,
  revokeApiToken: `mutation ($input: RevokeApiTokenInput!) { revokeApiToken(input: $input) { token { name state } ${USER_ERRORS} } }`,
  declareParent: `mutation ($input: DeclareParentRegistryInput!) { declareParentRegistry(input: $input) { namespace { path } ${USER_ERRORS} } }`,
  dropParent: `mutation { dropParentRegistry { namespace { path } ${USER_ERRORS} } }`,
  declareName: `mutation ($input: DeclareDefaultNamespaceInput!) { declareDefaultNamespace(input: $input) { namespace { path } ${USER_ERRORS} } }`,
  rotateKey: `mutation { rotateRegistryKey { kid ${USER_ERRORS} } }`,
  streams: `query ($filter: StreamFilter, $consistency: Consistency) { streams(first: 100, filter: $filter, consistency: $consistency) { totalCount nodes { namespace name config producerConfig consumerConfig } } }`,
  clusters: `query ($filter: ClusterFilter) { clusters(first: 100, filter: $filter) { totalCount nodes { namespace name config } } }`,
  changes: `{ changes(first: 500) { totalCount nodes { seq namespace entityType entityKey action actor data } } }`,
  entities: `query ($representations: [_Any!]!) { _entities(representations: $representations) {
    ... on Stream { namespace name config producerConfig consumerConfig effectiveConfig { config } }
    ... on Cluster { namespace name config }
    ... on Binding { fqn config } } }`,
  service: "{ _service { sdl } }",
  schema: "{ __schema { queryType { name } mutationType { fields { name } } } }",
  apiTokens: "{ apiTokens { name groups state } }",
  grants: "{ grants(first: 100) { totalCount nodes { principal role namespace streamPrefix } } }",
} as const;

/** What a registry holds, as its admin reads it: the corpus compares it before and after. */
const SNAPSHOT = `{
  changes { totalCount }
  streams(first: 200) { totalCount nodes { namespace name generation config producerConfig consumerConfig } }
  clusters(first: 200) { totalCount nodes { namespace name provider generation config } }
  bindings(first: 200) { totalCount nodes { fqn config status { phase generation } } }
  grants(first: 200) { totalCount nodes { principal role namespace streamPrefix } }
  apiTokens { name groups state }
  namespace { path parent { url } children { path } }
  registry { id namespace keys }
}`;

/** The registries, principals and signers the corpus's requests use. */
export interface CorpusWorld {
  root: RegistryNode;
  aws: RegistryNode;
  aws2: RegistryNode;
  ids: { root: string; aws: string; aws2: string };
  /** API token values by name (made at the root, granted at each registry as below). */
  tokens: Record<TokenName, string>;
  issuer: TestIssuer;
  /** An issuer nobody trusts. */
  stranger: TestIssuer;
  asRoot: RegistrySigner;
  asAws: RegistrySigner;
  /** Every registry's state, in tree order. */
  snapshot(): Promise<unknown[]>;
  dispose(): Promise<void>;
}

export type TokenName =
  | "reader"
  | "writer"
  | "aws-writer"
  | "prefixed"
  | "aws-admin"
  | "nobody"
  | "revoked"
  | "expired"
  | "grouped";

/** Who gets what, and where (the registry that keeps the grant). */
const GRANTS: {
  at: "/" | "/aws" | "/aws2";
  principal: string;
  role: string;
  scope?: string;
  streamPrefix?: string;
}[] = [
  { at: "/", principal: "token:reader", role: "reader" },
  { at: "/aws", principal: "token:reader", role: "reader" },
  { at: "/aws2", principal: "token:reader", role: "reader" },
  { at: "/", principal: "token:writer", role: "writer" },
  { at: "/aws", principal: "token:writer", role: "writer" },
  { at: "/", principal: "token:aws-writer", role: "reader", scope: "/aws" },
  { at: "/aws", principal: "token:aws-writer", role: "writer" },
  { at: "/", principal: "token:prefixed", role: "writer", streamPrefix: "widgets_" },
  { at: "/", principal: "token:aws-admin", role: "admin", scope: "/aws" },
  { at: "/aws", principal: "token:aws-admin", role: "admin" },
  { at: "/", principal: "group:oidc-readers", role: "reader" },
  // An admin group of /aws, which a token the root made (in that group) must not bring with it.
  { at: "/aws", principal: "group:aws-admins", role: "admin" },
  // Writers: refused for their credential, not their role (and token:admin stays the root's last admin).
  { at: "/", principal: "token:revoked", role: "writer" },
  { at: "/", principal: "token:expired", role: "writer" },
];

/**
 * Starts the tree and the issuers, plants objects, secrets, tokens and grants; waits until all is
 * still. `env` goes to every registry besides the corpus's own settings (npm run stress:tree sets
 * REGISTRY_CONNECT_ALLOW).
 */
export async function startCorpusWorld(env: Record<string, string> = {}): Promise<CorpusWorld> {
  const issuer = await startTestIssuer(AUDIENCE);
  const stranger = await startTestIssuer(AUDIENCE);
  let tree: Map<string, RegistryNode> | undefined;
  const dispose = async () => {
    await Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose()));
    await issuer[Symbol.asyncDispose]();
    await stranger[Symbol.asyncDispose]();
  };
  try {
    tree = await startRegistryTree(["/", "/aws", "/aws2"], {
      kinds: { "/": "postgres", "/aws": "postgres" },
      env: {
        NODE_ENV: "production",
        REGISTRY_AUTH: "on",
        REGISTRY_OIDC_ISSUER: issuer.issuer,
        REGISTRY_OIDC_AUDIENCE: AUDIENCE,
        ...env,
      },
    });
    const [root, aws, aws2] = [tree.get("/")!, tree.get("/aws")!, tree.get("/aws2")!];
    const at = { "/": root, "/aws": aws, "/aws2": aws2 } as const;
    const idOf = async (node: RegistryNode) =>
      (await node.query<{ registry: { id: string } }>("{ registry { id } }")).registry.id;
    const ids = { root: await idOf(root), aws: await idOf(aws), aws2: await idOf(aws2) };

    // Objects with secrets: a cluster's are sealed at rest, a stream's and a binding's redacted.
    await mutate(root, Q.declareCluster, {
      input: {
        name: "c1",
        provider: "registry-only",
        config: {
          vault: { token: SECRETS.cluster, host: "vault.internal" },
          "client.auth": {
            "sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="${SECRETS.jaas}";`,
          },
        },
      },
    });
    await mutate(root, Q.declareCluster, { input: { name: "c2", provider: "registry-only" } });
    await mutate(root, Q.createStream, {
      input: {
        name: "widgets_a",
        config: {
          "db.sink": {
            db_password: SECRETS.stream,
            "connection.url": `postgresql://app:${SECRETS.url}@db:5432/widgets`,
            host: "db",
          },
          "acme.kafka": { team: "widgets-team" },
        },
      },
    });
    for (const name of ["widgets_b", "gadgets_a", "gadgets_b"])
      await mutate(root, Q.createStream, { input: { name } });
    await mutate(root, Q.createBinding, {
      input: { stream: "widgets_a", cluster: "c1", config: { vault: { "api-key": SECRETS.binding } } },
    });
    await mutate(root, Q.createBinding, { input: { stream: "gadgets_a", cluster: "c1" } });
    await mutate(aws, Q.declareCluster, { input: { name: "aws-c1", provider: "registry-only" } });
    await mutate(aws, Q.createStream, {
      input: {
        name: "aws_a",
        config: {
          "db.sink": { password: SECRETS.aws, host: "db" },
          odd: {
            Pass: SECRETS.pass,
            notes: `-----BEGIN PRIVATE KEY-----\n${SECRETS.pem}\n-----END PRIVATE KEY-----`,
            header: `Bearer ${SECRETS.bearer}`,
          },
        },
      },
    });
    await mutate(aws, Q.createBinding, { input: { stream: "aws_a", cluster: "aws-c1" } });
    await mutate(aws2, Q.createStream, { input: { name: "aws2_a" } });

    // API tokens, all made at the root: the children's grants name them with their issuer (issue 19).
    const tokens = {} as Record<TokenName, string>;
    for (const name of [
      "reader",
      "writer",
      "aws-writer",
      "prefixed",
      "aws-admin",
      "nobody",
      "revoked",
      "expired",
      "grouped",
    ] as const) {
      const input = {
        name,
        ...(name === "expired" ? { expiresInDays: 1 } : {}),
        ...(name === "grouped" ? { groups: ["aws-admins"] } : {}),
      };
      tokens[name] = (await mutate<{ secret: string }>(root, Q.createApiToken, { input })).secret;
    }
    for (const { at: keeper, principal, ...input } of GRANTS) {
      const named = keeper === "/" || !principal.startsWith("token:") ? principal : `${principal}@/`;
      await mutate(at[keeper], Q.grant, { input: { ...input, principal: named } });
    }
    await mutate(root, Q.revokeApiToken, { input: { name: "revoked" } });
    // Expired yesterday (the shortest a token is made for is a day), before its first use.
    await queryDatabase(
      root.databaseUrl!,
      `UPDATE api_token SET expires_at = now() - interval '1 day' WHERE name = 'expired'`,
    );

    // Every change above is made; the root's index republishes its children's (their grants too)
    // into its own feed once it has read them.
    const madeAt = Date.now();
    const asRoot = await registrySigner(root.databaseUrl!);
    const asAws = await registrySigner(aws.databaseUrl!);
    const nodes = [root, aws, aws2];
    const snapshot = () =>
      Promise.all(
        nodes.map(async (node) => {
          const response = await node.request(SNAPSHOT, {}, { authorization: TEST_AUTHORIZATION });
          expect(response.errors).toBeUndefined();
          return response.data;
        }),
      );
    // Still: every binding realized, the root's index caught up with both children.
    await eventually(
      async () => {
        const { streams, bindings } = await root.query<{
          streams: { totalCount: number };
          bindings: { nodes: { status: { phase: string } }[] };
        }>("{ streams { totalCount } bindings(first: 100) { nodes { status { phase } } } }");
        const online = bindings.nodes.every((b) => b.status.phase === "ONLINE");
        return (streams.totalCount === 6 && bindings.nodes.length === 3 && online) || undefined;
      },
      60_000,
      "the root's index to hold every stream, and every binding ONLINE",
    );
    // Still, after the root's index has read each child's whole feed since then: a stillness seen
    // while a read of a child was slow would not last.
    await eventually(
      async () => {
        const { indexLag } = await root.query<{
          indexLag: { entriesBehind: number; syncedAt: string | null }[];
        }>("{ indexLag { entriesBehind syncedAt } }");
        const synced = (lag: { entriesBehind: number; syncedAt: string | null }) =>
          lag.entriesBehind === 0 && lag.syncedAt !== null && Date.parse(lag.syncedAt) > madeAt;
        return (indexLag.length === 2 && indexLag.every(synced)) || undefined;
      },
      60_000,
      "the root's index to have read both children's feeds to their end",
    );
    await settled(snapshot, 300, 30_000, "the tree to be still");
    return { root, aws, aws2, ids, tokens, issuer, stranger, asRoot, asAws, snapshot, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** One hostile request: where it goes, what it sends, and how it must be answered. */
export interface CorpusCase {
  name: string;
  category: string;
  /** The registry it is sent to. */
  to: "/" | "/aws" | "/aws2";
  /** Made at send time: the tree's tokens live 60 s. */
  headers: (w: CorpusWorld) => Promise<Record<string, string>> | Record<string, string>;
  /** A JSON body (serialized), or raw text; none for a GET. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  method?: "GET" | "POST";
  /** Query string of a GET, e.g. "?query=...". */
  search?: string;
  /** Whether it tries to change something (the world is compared after it). */
  mutates: boolean;
  expected: {
    status: number;
    /** The code the answer carries, in `errors` or in a payload's `userErrors`; null: none (answered, without what was asked). */
    code: string | null;
    /** More about the answer: data left out, redacted, no suggestions. */
    check?: (answer: Answer) => void;
  };
}

export interface Answer {
  status: number;
  text: string;
  json: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  /** Every code: of `errors`, and of `userErrors` anywhere in `data`. */
  codes: string[];
}

/** Sends one case over real HTTP. */
export async function send(w: CorpusWorld, c: CorpusCase): Promise<Answer> {
  const node = { "/": w.root, "/aws": w.aws, "/aws2": w.aws2 }[c.to];
  const method = c.method ?? "POST";
  const response = await fetch(`${node.url}${c.search ?? ""}`, {
    method,
    headers: { "content-type": c.contentType ?? "application/json", ...(await c.headers(w)) },
    body: method === "GET" ? undefined : (c.rawBody ?? JSON.stringify(c.body)),
  });
  const text = await response.text();
  let json: Answer["json"];
  try {
    json = JSON.parse(text) as Answer["json"];
  } catch {
    throw new Error(`HTTP ${response.status}, not JSON: ${text.slice(0, 300)}`);
  }
  const userErrorCodes = [...JSON.stringify(json.data ?? null).matchAll(/"code":"([A-Z_]+)"/g)].map(
    (m) => m[1]!,
  );
  const codes = [
    ...(json.errors ?? []).map((e) => String(e.extensions?.code ?? "(no code)")),
    ...userErrorCodes,
  ];
  return { status: response.status, text, json, codes };
}

/**
 * Asserts that `answer` is what case `c` expects: refused with its status and code (a 401 with one
 * error and no data, a 403 FORBIDDEN) or answered without an error, never an INTERNAL_SERVER_ERROR,
 * no planted secret in it, and the case's own check.
 */
export function expectAnsweredAs(c: CorpusCase, answer: Answer): void {
  expectNoSecret(answer.text);
  expect(answer.codes).not.toContain("INTERNAL_SERVER_ERROR");
  expect({ status: answer.status, codes: answer.codes }).toMatchObject({
    status: c.expected.status,
    ...(c.expected.code === null ? { codes: [] } : {}),
  });
  if (c.expected.code !== null) expect(answer.codes).toContain(c.expected.code);
  if (c.expected.status === 401) {
    expect(answer.json.data ?? null).toBeNull();
    expect(answer.json.errors).toHaveLength(1);
  }
  if (c.expected.status === 403) expect(answer.json.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  c.expected.check?.(answer);
}

/** Asserts that no planted secret is anywhere in `text`. */
export function expectNoSecret(text: string): void {
  for (const secret of SECRET_VALUES) expect(text).not.toContain(secret);
}

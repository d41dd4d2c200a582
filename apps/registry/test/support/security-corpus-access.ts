import { Q, SECRETS, type Answer, type CorpusCase, type TokenName } from "./security-corpus.ts";
import {
  ADMIN,
  as,
  AWS_OPS,
  caseList,
  childOwn,
  entitiesNull,
  FORBIDDEN,
  forUser,
  type Headers,
  type Target,
  input,
  noSuggestion,
  nothingShown,
  type Op,
  op,
  parentOwn,
  R,
  redacted,
  UNAUTHENTICATED,
} from "./security-corpus-ops.ts";

// The corpus's cases about what a verified principal may do: write out of its role or scope,
// escalate, bomb, extract secrets, see the schema.

/** The cases about access, in their categories. */
export function accessCases(): CorpusCase[] {
  const { cases, add } = caseList();
  // 5. A reader writing: every mutation there is, at the root and forwarded.
  const WRITES: Op[] = [
    input("createStream", Q.createStream, { name: "by_reader" }),
    input("updateStream", Q.updateStream, { name: "widgets_a", config: { "acme.kafka": { team: "x" } } }),
    input("deleteStream", Q.deleteStream, { name: "gadgets_b", cascade: true }),
    input("createBinding", Q.createBinding, { stream: "widgets_b", cluster: "c2" }),
    input("updateBinding", Q.updateBinding, { stream: "gadgets_a", cluster: "c1", config: { m: { k: 1 } } }),
    input("deleteBinding", Q.deleteBinding, { stream: "gadgets_a", cluster: "c1" }),
    input("declareCluster", Q.declareCluster, { name: "c9" }),
    input("redeclare a cluster's config", Q.declareCluster, {
      name: "c1",
      config: { vault: { host: "evil" } },
    }),
    input("deleteCluster", Q.deleteCluster, { name: "c2" }),
    input("grant itself admin", Q.grant, { principal: "token:reader", role: "admin" }),
    input("revoke the admin", Q.revoke, { principal: "token:admin", role: "admin" }),
    input("createApiToken", Q.createApiToken, { name: "by_reader" }),
    input("revokeApiToken", Q.revokeApiToken, { name: "writer" }),
    input("declareParentRegistry", Q.declareParent, { url: "http://127.0.0.1:9/graphql", token: "x" }),
    op("dropParentRegistry", Q.dropParent),
    input("declareDefaultNamespace", Q.declareName, { name: "hijacked" }),
    op("rotateRegistryKey", Q.rotateKey),
    input("createStream forwarded to /aws", Q.createStream, { namespace: "/aws", name: "by_reader" }),
    input("updateStream forwarded to /aws", Q.updateStream, { namespace: "/aws", name: "aws_a", config: {} }),
    input("deleteStream forwarded to /aws2", Q.deleteStream, { namespace: "/aws2", name: "aws2_a" }),
  ];
  for (const o of WRITES) add("reader writing", o.label, "/", as("reader"), o, FORBIDDEN);
  add(
    "reader writing",
    "an OIDC reader creating a stream",
    "/",
    async (w) => ({ authorization: `Bearer ${await w.issuer.sign({ groups: ["oidc-readers"] })}` }),
    WRITES[0]!,
    FORBIDDEN,
  );
  add(
    "reader writing",
    "an OIDC user naming groups nobody granted",
    "/",
    async (w) => ({
      authorization: `Bearer ${await w.issuer.sign({ sub: "admin", groups: ["admin", "admins", "platform"] })}`,
    }),
    WRITES[9]!,
    FORBIDDEN,
  );
  add(
    "reader writing",
    "a reader forwarded by the parent, createStream at /aws",
    "/aws",
    async (w) => ({ authorization: `Bearer ${await w.asRoot.sign(forUser("token:reader")(w))}` }),
    AWS_OPS[0]!,
    FORBIDDEN,
  );

  // 6. A writer out of its scope: /aws is not /aws2, nor /; a prefix is not another prefix.
  const outOfScope: [string, TokenName, Op[]][] = [
    [
      "a writer of /aws at /",
      "aws-writer",
      [
        input("createStream", Q.createStream, { name: "aws_w" }),
        input("updateStream", Q.updateStream, { name: "widgets_a", config: {} }),
        input("deleteStream", Q.deleteStream, { name: "gadgets_b" }),
        input("createBinding", Q.createBinding, { stream: "widgets_b", cluster: "c2" }),
      ],
    ],
    [
      "a writer of /aws at /aws2 (forwarded)",
      "aws-writer",
      [
        input("createStream", Q.createStream, { namespace: "/aws2", name: "aws_w" }),
        input("updateStream", Q.updateStream, { namespace: "/aws2", name: "aws2_a", config: {} }),
        input("deleteStream", Q.deleteStream, { namespace: "/aws2", name: "aws2_a" }),
      ],
    ],
    [
      "a writer of /aws",
      "aws-writer",
      [input("grant at /aws", Q.grant, { namespace: "/aws", principal: "token:aws-writer", role: "admin" })],
    ],
    [
      "a writer of widgets_",
      "prefixed",
      [
        input("createStream gadgets_x", Q.createStream, { name: "gadgets_x" }),
        input("createStream widget_x (a shorter prefix)", Q.createStream, { name: "widget_x" }),
        input("createStream Widgets_x (another case)", Q.createStream, { name: "Widgets_x" }),
        input("updateStream gadgets_a", Q.updateStream, { name: "gadgets_a", config: {} }),
        input("deleteStream gadgets_b", Q.deleteStream, { name: "gadgets_b" }),
        input("createBinding gadgets_b", Q.createBinding, { stream: "gadgets_b", cluster: "c2" }),
        input("updateBinding gadgets_a", Q.updateBinding, { stream: "gadgets_a", cluster: "c1", config: {} }),
        input("deleteBinding gadgets_a", Q.deleteBinding, { stream: "gadgets_a", cluster: "c1" }),
        input("createStream widgets_x at /aws", Q.createStream, { namespace: "/aws", name: "widgets_x" }),
      ],
    ],
    [
      "a principal without grants",
      "nobody",
      [
        input("createStream", Q.createStream, { name: "by_nobody" }),
        input("createStream at /aws", Q.createStream, { namespace: "/aws", name: "by_nobody" }),
      ],
    ],
  ];
  for (const [who, token, ops] of outOfScope)
    for (const o of ops) add("writer out of scope", `${who}, ${o.label}`, "/", as(token), o, FORBIDDEN);

  // 7. Only admins make the registry connect somewhere new, or change its settings.
  const ADMIN_ONLY: Op[] = [
    input("declareCluster", Q.declareCluster, { name: "c9", provider: "registry-only" }),
    input("declareCluster (kafka at an internal host)", Q.declareCluster, {
      name: "scan",
      provider: "kafka",
      config: { "apache.kafka": { "bootstrap.servers": "10.0.0.1:5432" } },
    }),
    input("redeclare a cluster elsewhere", Q.declareCluster, {
      name: "c1",
      config: { vault: { host: "evil.example" } },
    }),
    input("deleteCluster", Q.deleteCluster, { name: "c2" }),
    input("declareParentRegistry", Q.declareParent, { url: "http://127.0.0.1:9/graphql", token: "x" }),
    op("dropParentRegistry", Q.dropParent),
    input("declareDefaultNamespace", Q.declareName, { name: "hijacked" }),
    op("rotateRegistryKey", Q.rotateKey),
    input("createApiToken", Q.createApiToken, { name: "by_writer" }),
    input("revokeApiToken", Q.revokeApiToken, { name: "reader" }),
    input("grant", Q.grant, { principal: "token:nobody", role: "reader" }),
  ];
  for (const o of ADMIN_ONLY) add("admin only", `a writer, ${o.label}`, "/", as("writer"), o, FORBIDDEN);
  add(
    "admin only",
    "a writer of /aws, declareCluster at /aws (forwarded)",
    "/",
    as("aws-writer"),
    input("declareCluster", Q.declareCluster, { namespace: "/aws", name: "c9" }),
    FORBIDDEN,
  );
  add(
    "admin only",
    "a writer of /aws, dropParentRegistry at /aws (forwarded for it by the parent)",
    "/aws",
    async (w) => ({ authorization: `Bearer ${await w.asRoot.sign(forUser("token:aws-writer")(w))}` }),
    op("dropParentRegistry", Q.dropParent),
    FORBIDDEN,
  );
  add("admin only", "a writer, SHOW TOKENS", "/", as("writer"), op("apiTokens", Q.apiTokens), FORBIDDEN);

  // 8. Escalation: nobody grants more than it has, where it has it; the last admin stays.
  const grant = (principal: string, role: string, more: Record<string, unknown> = {}) =>
    input("grant", Q.grant, { principal, role, ...more });
  const escalation: [string, TokenName, Op][] = [
    ["a writer grants itself admin", "writer", grant("token:writer", "admin")],
    ["a prefixed writer widens its own prefix", "prefixed", grant("token:prefixed", "writer")],
    [
      "an admin of /aws grants itself admin at /",
      "aws-admin",
      grant("token:aws-admin", "admin", { scope: "/" }),
    ],
    [
      "an admin of /aws grants itself admin with no scope (the root's)",
      "aws-admin",
      grant("token:aws-admin", "admin"),
    ],
    ["an admin of /aws grants at /aws2", "aws-admin", grant("token:nobody", "reader", { scope: "/aws2" })],
    [
      "an admin of /aws grants at /aws2/x",
      "aws-admin",
      grant("token:nobody", "writer", { scope: "/aws2/x" }),
    ],
    ["an admin of /aws grants at /aw", "aws-admin", grant("token:nobody", "writer", { scope: "/aw" })],
    [
      "an admin of /aws revokes the root's admin",
      "aws-admin",
      input("revoke", Q.revoke, { principal: "token:admin", role: "admin" }),
    ],
    [
      "an admin of /aws revokes a reader of /",
      "aws-admin",
      input("revoke", Q.revoke, { principal: "token:reader", role: "reader" }),
    ],
    [
      "an admin of /aws makes an API token at the root",
      "aws-admin",
      input("createApiToken", Q.createApiToken, { name: "aws_backdoor" }),
    ],
    [
      "an admin of /aws revokes an API token at the root",
      "aws-admin",
      input("revokeApiToken", Q.revokeApiToken, { name: "writer" }),
    ],
    [
      "an admin of /aws declares a cluster at /",
      "aws-admin",
      input("declareCluster", Q.declareCluster, { name: "c9" }),
    ],
    ["an admin of /aws rotates the root's key", "aws-admin", op("rotateRegistryKey", Q.rotateKey)],
    [
      "an admin of /aws writes a stream at /",
      "aws-admin",
      input("createStream", Q.createStream, { name: "aws_admin_s" }),
    ],
    [
      "an admin of /aws grants at /aws2 through the root (forwarded)",
      "aws-admin",
      grant("token:aws-admin", "admin", { namespace: "/aws2" }),
    ],
    [
      "a writer of /aws grants itself admin at /aws (forwarded)",
      "aws-writer",
      grant("token:aws-writer", "admin", { namespace: "/aws" }),
    ],
  ];
  for (const [name, token, o] of escalation) add("escalation", name, "/", as(token), o, FORBIDDEN);
  // The last admin grant of a registry stays, whoever revokes it.
  const revokeLast = (namespace?: string) =>
    input("revoke", Q.revoke, {
      principal: "token:admin",
      role: "admin",
      ...(namespace ? { namespace } : {}),
    });
  const IN_USE = { status: 200, code: "IN_USE" };
  add("escalation", "the admin revokes the last admin of the root", "/", ADMIN, revokeLast(), IN_USE);
  add(
    "escalation",
    "the admin revokes the last admin of /aws2 (forwarded)",
    "/",
    ADMIN,
    revokeLast("/aws2"),
    IN_USE,
  );

  // 10. Bombs and oversized bodies (the hardening corpus has the rest): refused before they cost.
  const nested = (pairs: number) =>
    `{ stream(name: "widgets_a") { ${"bindings { stream { ".repeat(pairs)}name${" } }".repeat(pairs)} } }`;
  const aliases = (n: number, selection: string) =>
    `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(" ")} }`;
  const LIMIT = { status: 400, code: "QUERY_LIMIT_EXCEEDED" } as const;
  add(
    "limits",
    "a reader, stream/bindings nested 12 pairs deep",
    "/",
    as("reader"),
    op("depth", nested(12)),
    LIMIT,
  );
  add(
    "limits",
    "a reader, 100 aliases of a page of streams",
    "/",
    as("reader"),
    op("aliases", aliases(100, "streams(first: 500) { nodes { name config } }")),
    LIMIT,
  );
  add(
    "limits",
    "a reader, 6,000 tokens",
    "/",
    as("reader"),
    op("tokens", `{ ${"__typename ".repeat(6_000)}}`),
    LIMIT,
  );
  add(
    "limits",
    "a writer, 100 aliased createStream mutations",
    "/",
    as("writer"),
    op(
      "aliased mutations",
      `mutation { ${Array.from({ length: 100 }, (_, i) => `m${i}: createStream(input: { name: "bomb_${i}" }) { userErrors { code } }`).join(" ")} }`,
    ),
    LIMIT,
  );
  add(
    "limits",
    "a writer, 100 aliased createStream mutations forwarded to /aws",
    "/",
    as("writer"),
    op(
      "aliased mutations",
      `mutation { ${Array.from({ length: 100 }, (_, i) => `m${i}: createStream(input: { namespace: "/aws", name: "bomb_${i}" }) { userErrors { code } }`).join(" ")} }`,
    ),
    LIMIT,
  );
  add(
    "limits",
    "no credential, an alias bomb (authentication first)",
    "/",
    () => ({}),
    op("aliases", aliases(1000, "streams { totalCount }")),
    UNAUTHENTICATED,
  );
  const huge = `{"query":"mutation { createStream(input: { name: \\"big\\" }) { userErrors { code } } }","variables":{"pad":"${"x".repeat(11 * 1024 * 1024)}"}}`;
  add(
    "limits",
    "an admin, an 11 MB body",
    "/",
    ADMIN,
    { rawBody: huge, mutates: true },
    { status: 413, code: "BAD_REQUEST" },
  );
  add(
    "limits",
    "an admin, an 11 MB body at the child",
    "/aws",
    ADMIN,
    { rawBody: huge, mutates: true },
    { status: 413, code: "BAD_REQUEST" },
  );
  // Without a credential, nothing larger than a registration is read: refused as unauthenticated.
  add(
    "limits",
    "no credential, an 11 MB body",
    "/",
    () => ({}),
    { rawBody: huge, mutates: true },
    UNAUTHENTICATED,
  );
  add(
    "limits",
    "a writer, a batch of 50 mutations in one body",
    "/",
    as("writer"),
    {
      body: Array.from({ length: 50 }, (_, i) => ({
        query: `mutation { createStream(input: { name: "batch_${i}" }) { userErrors { code } } }`,
      })),
      mutates: true,
    },
    { status: 400, code: "BAD_REQUEST" },
  );

  // 11. Secret extraction: filters, sorting, errors, _entities, the change feed. No answer holds a secret.
  const INVALID = { status: 400, code: "INVALID_INPUT" } as const;
  const streamFilter = (config: unknown, extra: Record<string, unknown> = {}) =>
    op("streams filtered", Q.streams, { filter: { config, ...extra } });
  const secretFilters: [string, Headers, Op][] = [
    [
      "a reader filters streams on a password",
      as("reader"),
      streamFilter([{ map: "db.sink", key: "db_password", value: SECRETS.stream }]),
    ],
    [
      "a reader filters streams on a wrong guess",
      as("reader"),
      streamFilter([{ map: "db.sink", key: "db_password", value: "hunter2" }]),
    ],
    [
      "a reader filters streams on a URL with a password",
      as("reader"),
      streamFilter([
        { map: "db.sink", key: "connection.url", value: `postgresql://app:${SECRETS.url}@db:5432/widgets` },
      ]),
    ],
    [
      "a reader filters streams on a password beside a public key",
      as("reader"),
      streamFilter([
        { map: "acme.kafka", key: "team", value: "widgets-team" },
        { map: "db.sink", key: "db_password", value: SECRETS.stream },
      ]),
    ],
    [
      "a reader filters /aws's streams (the index) on a password",
      as("reader"),
      streamFilter([{ map: "db.sink", key: "password", value: SECRETS.aws }], { namespace: "/aws" }),
    ],
    [
      "a reader filters streams LIVE on a password",
      as("reader"),
      op("streams LIVE", Q.streams, {
        consistency: "LIVE",
        filter: { config: [{ map: "db.sink", key: "password", value: SECRETS.aws }] },
      }),
    ],
    [
      "a reader filters clusters on a vault token",
      as("reader"),
      op("clusters filtered", Q.clusters, {
        filter: { config: [{ map: "vault", key: "token", value: SECRETS.cluster }] },
      }),
    ],
    [
      "a reader filters clusters on a JAAS config",
      as("reader"),
      op("clusters filtered", Q.clusters, {
        filter: { config: [{ map: "client.auth", key: "sasl.jaas.config", value: SECRETS.jaas }] },
      }),
    ],
    [
      "the admin filters streams on a password",
      ADMIN,
      streamFilter([{ map: "db.sink", key: "db_password", value: SECRETS.stream }]),
    ],
    [
      "a stream's clusters through a nested filter on a password",
      as("reader"),
      op(
        "namespace streams filtered",
        `query ($f: StreamFilter) { namespace { streams(filter: $f) { totalCount } } }`,
        { f: { config: [{ map: "db.sink", key: "db_password", value: SECRETS.stream }] } },
      ),
    ],
  ];
  for (const [name, headers, o] of secretFilters) add("secret extraction", name, "/", headers, o, INVALID);
  const VALIDATION = { status: 400, code: "GRAPHQL_VALIDATION_FAILED" } as const;
  add(
    "secret extraction",
    "a reader sorts streams by a password (orderBy)",
    "/",
    as("reader"),
    op("sort", `{ streams(orderBy: { map: "db.sink", key: "db_password" }) { nodes { name } } }`),
    { ...VALIDATION, check: noSuggestion },
  );
  add(
    "secret extraction",
    "a reader sorts streams by a password (sort)",
    "/",
    as("reader"),
    op("sort", `{ streams(sort: "config.db.sink.db_password") { nodes { name } } }`),
    { ...VALIDATION, check: noSuggestion },
  );
  add(
    "secret extraction",
    "a reader reads a stream's config as a string",
    "/",
    as("reader"),
    op("coerce", `{ stream(name: "widgets_a") { config(key: "db_password") } }`),
    { ...VALIDATION, check: noSuggestion },
  );
  add(
    "secret extraction",
    "an admin's invalid stream name beside a secret: the error does not echo it",
    "/",
    ADMIN,
    input("createStream", Q.createStream, {
      name: "bad name",
      config: { "db.sink": { db_password: SECRETS.stream } },
    }),
    { status: 200, code: "INVALID_INPUT" },
    true,
  );
  add(
    "secret extraction",
    "an admin's secret in a config value of the wrong shape",
    "/",
    ADMIN,
    input("createStream", Q.createStream, {
      name: "shape_s",
      config: { "db.sink": { db_password: { value: SECRETS.stream } } },
    }),
    { status: 200, code: "INVALID_INPUT" },
    true,
  );
  add(
    "secret extraction",
    "an admin's secret as a map that is not a map",
    "/",
    ADMIN,
    input("createStream", Q.createStream, { name: "shape_s", config: { "db.sink": SECRETS.stream } }),
    { status: 200, code: "INVALID_INPUT" },
    true,
  );
  add(
    "secret extraction",
    "an admin's secret as a filter value of the wrong type",
    "/",
    ADMIN,
    op("filter", Q.streams, {
      filter: { config: [{ map: "db.sink", key: "db_password", value: { v: SECRETS.stream } }] },
    }),
    { status: 400, code: "BAD_USER_INPUT" },
  );
  add(
    "secret extraction",
    "an admin's secret as a filter literal of the wrong type",
    "/",
    ADMIN,
    op(
      "filter",
      `{ streams(filter: { config: [{ map: "db.sink", key: "db_password", value: { v: "${SECRETS.stream}" } }] }) { totalCount } }`,
    ),
    VALIDATION,
  );
  add(
    "secret extraction",
    "an admin's secret as a stream name of the wrong type",
    "/",
    ADMIN,
    input("createStream", Q.createStream, { name: { password: SECRETS.stream } }),
    { status: 400, code: "BAD_USER_INPUT" },
    true,
  );
  add(
    "secret extraction",
    "an admin's secret as a grant's role",
    "/",
    ADMIN,
    input("grant", Q.grant, { principal: "token:nobody", role: [SECRETS.stream] }),
    { status: 400, code: "BAD_USER_INPUT" },
    true,
  );
  add(
    "secret extraction",
    "a reader's secret in a forbidden update",
    "/",
    as("reader"),
    input("updateStream", Q.updateStream, {
      name: "widgets_a",
      config: { "db.sink": { db_password: SECRETS.stream, host: "db" } },
    }),
    FORBIDDEN,
  );
  add(
    "secret extraction",
    "a reader writes back a placeholder to learn the fingerprint",
    "/",
    as("reader"),
    input("declareCluster", Q.declareCluster, { name: "c1", config: { vault: { token: R } } }),
    FORBIDDEN,
  );
  // Answered, with the secrets redacted (or, out of scope, absent).
  const rep = {
    stream: { __typename: "Stream", namespace: "/", name: "widgets_a" },
    cluster: { __typename: "Cluster", namespace: "/", name: "c1" },
    binding: { __typename: "Binding", fqn: "/c1/widgets_a" },
    aws: { __typename: "Stream", namespace: "/aws", name: "aws_a" },
  };
  const entities = (...representations: unknown[]) => op("_entities", Q.entities, { representations });
  const changes = op("changes", Q.changes);
  const effective = `{ stream(name: "widgets_a") { effectiveConfig { config }
    bindings { effectiveConfig { config } config cluster { config } } } }`;
  const answered: [string, Target, Headers, Op, (a: Answer) => void][] = [
    [
      "a reader selects configs through _entities",
      "/",
      as("reader"),
      entities(rep.stream, rep.cluster, rep.binding),
      redacted,
    ],
    [
      "a reader selects /aws's config through _entities (forwarded)",
      "/",
      as("reader"),
      entities(rep.aws),
      redacted,
    ],
    [
      "a principal without grants selects configs through _entities",
      "/",
      as("nobody"),
      entities(rep.stream, rep.cluster, rep.binding, rep.aws),
      entitiesNull(4),
    ],
    [
      "a writer of widgets_ selects a cluster through _entities",
      "/",
      as("prefixed"),
      entities(rep.cluster),
      entitiesNull(1),
    ],
    [
      "the parent's own token selects configs through _entities at /aws",
      "/aws",
      parentOwn,
      entities(rep.aws),
      redacted,
    ],
    ["a reader reads the change feed's data", "/", as("reader"), changes, redacted],
    ["the parent's own token reads /aws's change feed", "/aws", parentOwn, changes, redacted],
    ["a principal without grants reads the change feed", "/", as("nobody"), changes, nothingShown],
    ["a writer of widgets_ reads the change feed", "/", as("prefixed"), changes, nothingShown],
    ["a reader reads effective configs", "/", as("reader"), op("effective", effective), redacted],
    [
      "a reader lists configs LIVE across the tree",
      "/",
      as("reader"),
      op("streams LIVE", Q.streams, { consistency: "LIVE" }),
      redacted,
    ],
  ];
  for (const [name, to, headers, o, check] of answered)
    add("secret extraction", name, to, headers, o, { status: 200, code: null, check });

  // 12. The schema in production: only admins (and the parent) see it.
  const SCHEMA_FORBIDDEN = { ...FORBIDDEN, check: noSuggestion };
  const schemaQueries: [string, string, string?][] = [
    ["__schema", Q.schema],
    ["__type", '{ __type(name: "Stream") { fields { name } } }'],
    ["_service { sdl }", Q.service],
    ["__schema in a fragment", "query { ...F } fragment F on Query { __schema { types { name } } }"],
    [
      "__type in an inline fragment under an alias",
      '{ ... on Query { t: __type(name: "GrantInput") { inputFields { name } } } }',
    ],
    [
      "__schema in another operation of the document",
      "query A { __typename } query B { __schema { types { name } } }",
      "A",
    ],
  ];
  for (const [label, query, operationName] of schemaQueries)
    for (const [who, headers] of [
      ["a reader", as("reader")],
      ["a writer", as("writer")],
    ] as const)
      add(
        "schema",
        `${who}, ${label}`,
        "/",
        headers,
        { body: { query, ...(operationName ? { operationName } : {}) }, mutates: false },
        SCHEMA_FORBIDDEN,
      );
  add(
    "schema",
    "an OIDC reader, __schema",
    "/",
    async (w) => ({ authorization: `Bearer ${await w.issuer.sign({ groups: ["oidc-readers"] })}` }),
    op("schema", Q.schema),
    SCHEMA_FORBIDDEN,
  );
  add(
    "schema",
    "a principal without grants, _service { sdl }",
    "/",
    as("nobody"),
    op("sdl", Q.service),
    SCHEMA_FORBIDDEN,
  );
  add(
    "schema",
    "the child's own token at the root, __schema",
    "/",
    childOwn,
    op("schema", Q.schema),
    SCHEMA_FORBIDDEN,
  );
  add(
    "schema",
    "a user the parent forwards, at /aws, _service { sdl }",
    "/aws",
    async (w) => ({ authorization: `Bearer ${await w.asRoot.sign(forUser("token:reader")(w))}` }),
    op("sdl", Q.service),
    SCHEMA_FORBIDDEN,
  );
  add(
    "schema",
    "a reader, __schema in a GET",
    "/",
    as("reader"),
    { method: "GET", search: `?query=${encodeURIComponent(Q.schema)}`, mutates: false },
    SCHEMA_FORBIDDEN,
  );
  const typos: [string, string][] = [
    ["a field", "{ streamz { totalCount } }"],
    ["a nested field", "{ streams { nodez { name } } }"],
    ["an argument", "{ streams(fist: 1) { totalCount } }"],
    ["an enum value", "{ streams(consistency: LIV) { totalCount } }"],
    ["a type", "query ($f: StreamFiltr) { streams(filter: $f) { totalCount } }"],
    ["an input field", '{ streams(filter: { nameStartWith: "w" }) { totalCount } }'],
    ["a mutation", 'mutation { creatStream(input: { name: "x" }) { userErrors { code } } }'],
  ];
  for (const [label, query] of typos)
    add(
      "schema",
      `a reader's typo in ${label}: no "Did you mean"`,
      "/",
      as("reader"),
      { body: { query }, mutates: query.startsWith("mutation") },
      { ...VALIDATION, check: noSuggestion },
    );

  return cases;
}

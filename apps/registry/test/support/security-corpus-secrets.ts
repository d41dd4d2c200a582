import { Q, SECRETS, type Answer, type CorpusCase } from "./security-corpus.ts";
import {
  ADMIN,
  as,
  caseList,
  entitiesNull,
  FORBIDDEN,
  type Headers,
  input,
  noSuggestion,
  nothingShown,
  type Op,
  op,
  parentOwn,
  R,
  redacted,
  shown,
  type Target,
  VALIDATION,
} from "./security-corpus-ops.ts";

// The corpus's attempts at secrets: filters, sorting, errors, _entities, the change feed. No answer
// holds a secret.

/** Refused where a secret would be compared, sorted or echoed; answered redacted (or, out of scope, absent). */
export function secretExtractionCases(): CorpusCase[] {
  const { cases, add } = caseList();
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
      "a reader filters /aws's streams (the index) on a key spelled Pass",
      as("reader"),
      streamFilter([{ map: "odd", key: "Pass", value: SECRETS.pass }], { namespace: "/aws" }),
    ],
    [
      "a reader filters /aws's streams (the index) on a Bearer token under a neutral key",
      as("reader"),
      streamFilter([{ map: "odd", key: "header", value: `Bearer ${SECRETS.bearer}` }], { namespace: "/aws" }),
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
    add("secret extraction", name, to, headers, o, shown(check));
  return cases;
}

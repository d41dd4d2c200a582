import { CONFIG_LIMITS } from "@stream-registry/core";
import type { HostileCase } from "./hostile-case.ts";

const INVALID = "INVALID_INPUT";
const CREATE_STREAM = "mutation($i: CreateStreamInput!) { createStream(input: $i) { userErrors { code } } }";
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const maps = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, { k: 1 }]));
const big = "v".repeat(CONFIG_LIMITS.maxValueLength);

const configs: [string, unknown][] = [
  ["a value one character over the limit", { m: { k: `${big}v` } }],
  ["a 1 MB value", { m: { k: "v".repeat(1_000_000) } }],
  ["a map with 257 keys", { m: keys(CONFIG_LIMITS.maxKeysPerMap + 1) }],
  ["a map with 100,000 keys", { m: keys(100_000) }],
  ["33 maps", maps(CONFIG_LIMITS.maxMaps + 1)],
  ["10,000 maps", maps(10_000)],
  [
    "maps larger than the total limit",
    Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`m${i}`, { k: big }])),
  ],
  ["2^53", { m: { k: 2 ** 53 } }],
  ["2^64 (rounded by JSON.parse)", { m: { k: 18446744073709551616 } }],
  ["-2^63", { m: { k: -(2 ** 63) } }],
  ["1e300", { m: { k: 1e300 } }],
  ["a nested object value", { m: { k: { deeper: 1 } } }],
  ["an array value", { m: { k: [1, 2] } }],
  ["a null value", { m: { k: null } }],
  ["a __proto__ key", JSON.parse('{"m": {"__proto__": 1}}')],
  ["a map that is a string", { m: "x" }],
  ["config that is an array", [{ m: { k: 1 } }]],
  ["config that is a number", 7],
  ["an empty key", { m: { "": 1 } }],
  ["a map name with a space", { "apache kafka": { k: 1 } }],
];

export const configCases: HostileCase[] = configs.flatMap(([label, config]) => [
  {
    name: `createStream with ${label}`,
    request: { query: CREATE_STREAM, variables: { i: { name: "n2", config } } },
    code: INVALID,
  },
  {
    name: `updateBinding consumer config with ${label}`,
    request: {
      query: "mutation($i: UpdateBindingInput!) { updateBinding(input: $i) { userErrors { code } } }",
      variables: { i: { stream: "s1", cluster: "c1", consumerConfig: config } },
    },
    code: INVALID,
  },
]);

const entry = { map: "apache.kafka", key: "partitions", value: 3 };
const STREAMS =
  "query($f: StreamFilter, $first: Int, $a: String) { streams(filter: $f, first: $first, after: $a) { totalCount } }";
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export const readCases: HostileCase[] = [
  ...[17, 1_000].map((n) => ({
    name: `a config filter of ${n} entries`,
    request: { query: STREAMS, variables: { f: { config: Array.from({ length: n }, () => entry) } } },
    code: INVALID,
  })),
  ...[2 ** 53, 18446744073709551616].map((value) => ({
    name: `a config filter value of ${value}`,
    request: { query: STREAMS, variables: { f: { config: [{ ...entry, value }] } } },
    code: "BAD_USER_INPUT",
  })),
  {
    name: "a config filter value of 2^64 as a literal",
    request: {
      query: `{ streams(filter: { config: [{ map: "m", key: "k", value: 18446744073709551616 }] }) { totalCount } }`,
    },
    code: "GRAPHQL_VALIDATION_FAILED",
  },
  {
    name: "a config filter on a secret key",
    request: {
      query: STREAMS,
      variables: { f: { config: [{ map: "m", key: "sasl.jaas.config", value: "x" }] } },
    },
    code: INVALID,
  },
  ...[-1, 501, 2_147_483_647].map((first) => ({
    name: `first: ${first}`,
    request: { query: STREAMS, variables: { first } },
    code: INVALID,
  })),
  {
    name: "first: 2^31 (not an Int)",
    request: { query: STREAMS, variables: { first: 2 ** 31 } },
    code: "BAD_USER_INPUT",
  },
  {
    name: "first: a string",
    request: { query: STREAMS, variables: { first: "ten" } },
    code: "BAD_USER_INPUT",
  },
  ...[
    ["garbage", "not a cursor!"],
    ["10 KB", "A".repeat(10_000)],
    ["with the wrong fields", cursor({ nope: 1 })],
    ["with a NUL inside", cursor({ name: "a\u0000b" })],
    ["with a lone surrogate inside", cursor({ name: "\ud800" })],
    ["of an array", cursor([1])],
  ].map(([label, after]) => ({
    name: `a cursor ${label}`,
    request: { query: STREAMS, variables: { a: after } },
    code: INVALID,
  })),
  {
    name: "a changes cursor beyond bigint",
    request: {
      query: "query($a: String) { changes(after: $a) { totalCount } }",
      variables: { a: cursor({ seq: "9".repeat(30) }) },
    },
    code: INVALID,
  },
  {
    name: "a bindings cursor with an impossible time",
    request: {
      query: "query($a: String) { bindings(after: $a) { totalCount } }",
      variables: { a: cursor({ s: "s1", t: 1e300, id: "00000000-0000-0000-0000-000000000000" }) },
    },
    code: INVALID,
  },
];

const ENTITIES = "query($r: [_Any!]!) { _entities(representations: $r) { __typename } }";
export const entityCases: HostileCase[] = (
  [
    ["a number", 7],
    ["an array", [1]],
    ["no __typename", { name: "s1" }],
    ["an unknown __typename", { __typename: "Nope" }],
    ["a non-entity type", { __typename: "ClusterHealth" }],
    ["an introspection type", { __typename: "__Type" }],
    ["a Stream without its name", { __typename: "Stream", namespace: "/" }],
    ["a Stream whose name is a number", { __typename: "Stream", namespace: "/", name: 7 }],
    ["a Cluster whose namespace is an object", { __typename: "Cluster", namespace: {}, name: "c1" }],
    ["a Binding with a malformed fqn", { __typename: "Binding", fqn: "not-an-fqn" }],
    ["a Namespace without a path", { __typename: "Namespace" }],
  ] as const
).map(([label, representation]) => ({
  name: `_entities with ${label}`,
  request: {
    query: ENTITIES,
    variables: { r: [{ __typename: "Stream", namespace: "/", name: "s1" }, representation] },
  },
  code: INVALID,
}));

// JSON.stringify would overflow its own stack on this, so the body is written out.
const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const CREATE_BINDING =
  "mutation($i: CreateBindingInput!) { createBinding(input: $i) { userErrors { code } } }";

export const httpCases: HostileCase[] = [
  {
    name: "a config map nested 100,000 levels deep",
    request: `{"query":${JSON.stringify(CREATE_STREAM)},"variables":{"i":{"name":"n3","config":{"m":${deep}}}}}`,
    code: INVALID,
  },
  {
    name: "a binding config nested 100,000 levels deep",
    request: `{"query":${JSON.stringify(CREATE_BINDING)},"variables":{"i":{"stream":"s1","cluster":"c1","config":${deep}}}}`,
    code: INVALID,
  },
  {
    name: "a null entity representation",
    request: { query: ENTITIES, variables: { r: [null] } },
    code: "BAD_USER_INPUT",
  },
  {
    name: "a body that is not JSON",
    request: "{ not json",
    contentType: "application/json",
    code: "BAD_REQUEST",
  },
  {
    name: "a batch of operations",
    request: [{ query: "{ __typename }" }, { query: "{ __typename }" }],
    code: "BAD_REQUEST",
  },
  { name: "a query that is a number", request: { query: 7 }, code: "BAD_REQUEST" },
  {
    name: "variables that are an array",
    request: { query: "{ __typename }", variables: [1] },
    code: "BAD_REQUEST",
  },
  {
    name: "variables that are a string",
    request: { query: "{ __typename }", variables: "x" },
    code: "BAD_REQUEST",
  },
  { name: "no query", request: {}, code: "BAD_REQUEST" },
  { name: "an empty query", request: { query: "" }, code: "BAD_REQUEST" },
  { name: "a text/plain body", request: "{ __typename }", contentType: "text/plain", code: "BAD_REQUEST" },
  {
    name: "an 11 MB body",
    request: { query: "{ __typename }", padding: "x".repeat(11 * 1024 * 1024) },
    code: "BAD_REQUEST",
  },
  {
    name: "an unknown operation name",
    request: { query: "query A { __typename }", operationName: "B" },
    code: "OPERATION_RESOLUTION_FAILURE",
  },
  {
    name: "two operations and no name",
    request: { query: "query A { __typename } query B { __typename }" },
    code: "OPERATION_RESOLUTION_FAILURE",
  },
  { name: "a syntax error", request: { query: "{ stream(" }, code: "GRAPHQL_PARSE_FAILED" },
  { name: "an unknown field", request: { query: "{ strems { name } }" }, code: "GRAPHQL_VALIDATION_FAILED" },
  {
    name: "a missing required argument",
    request: { query: "{ stream { name } }" },
    code: "GRAPHQL_VALIDATION_FAILED",
  },
  {
    name: "a subscription",
    request: { query: "subscription { changes }" },
    code: "GRAPHQL_VALIDATION_FAILED",
  },
  {
    name: "a mutation over GET",
    request: "",
    method: "GET /graphql?query=mutation%7BdeleteStream(input%3A%7Bname%3A%22s1%22%7D)%7Bdeleted%7D%7D",
    code: "BAD_REQUEST",
  },
];

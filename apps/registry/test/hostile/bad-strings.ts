import type { HostileCase } from "./hostile-case.ts";

/** Strings no field can store: PostgreSQL refuses NUL, and lone surrogates are not Unicode. */
export const BAD_STRINGS = {
  NUL: "a\u0000b",
  "lone high surrogate": "\ud800",
  "lone low surrogate": "x\udc00",
  "reversed surrogates": "\udc00\ud800",
} as const;

/** One slot of the API where a client can put a string: an operation and where its variable goes. */
interface Slot {
  name: string;
  query: string;
  variables: (bad: string) => Record<string, unknown>;
}

const cfg = (bad: string) => ({ "apache.kafka": { "cleanup.policy": bad } });
const key = (bad: string) => ({ "apache.kafka": { [bad]: 1 } });
const map = (bad: string) => ({ [bad]: { k: 1 } });

const CREATE_STREAM = "mutation($i: CreateStreamInput!) { createStream(input: $i) { userErrors { code } } }";
const UPDATE_STREAM = "mutation($i: UpdateStreamInput!) { updateStream(input: $i) { userErrors { code } } }";
const DECLARE = "mutation($i: DeclareClusterInput!) { declareCluster(input: $i) { userErrors { code } } }";
const CREATE_BINDING =
  "mutation($i: CreateBindingInput!) { createBinding(input: $i) { userErrors { code } } }";
const UPDATE_BINDING =
  "mutation($i: UpdateBindingInput!) { updateBinding(input: $i) { userErrors { code } } }";
const ENTITIES = "query($r: [_Any!]!) { _entities(representations: $r) { __typename } }";
const STREAMS = "query($f: StreamFilter, $a: String) { streams(filter: $f, after: $a) { totalCount } }";

const slots: Slot[] = [
  {
    name: "stream(name)",
    query: "query($n: String!) { stream(name: $n) { name } }",
    variables: (n) => ({ n }),
  },
  {
    name: "cluster(name)",
    query: "query($n: String!) { cluster(name: $n) { name } }",
    variables: (n) => ({ n }),
  },
  {
    name: "binding(stream)",
    query: 'query($s: String!) { binding(stream: $s, cluster: "c1") { fqn } }',
    variables: (s) => ({ s }),
  },
  {
    name: "binding(cluster)",
    query: 'query($c: String!) { binding(stream: "s1", cluster: $c) { fqn } }',
    variables: (c) => ({ c }),
  },
  { name: "streams(nameStartsWith)", query: STREAMS, variables: (v) => ({ f: { nameStartsWith: v } }) },
  { name: "streams(nameContains)", query: STREAMS, variables: (v) => ({ f: { nameContains: v } }) },
  { name: "streams(after)", query: STREAMS, variables: (a) => ({ a }) },
  {
    name: "streams(config filter value)",
    query: STREAMS,
    variables: (v) => ({ f: { config: [{ map: "apache.kafka", key: "partitions", value: v }] } }),
  },
  {
    name: "streams(config filter key)",
    query: STREAMS,
    variables: (v) => ({ f: { config: [{ map: "apache.kafka", key: v, value: 1 }] } }),
  },
  {
    name: "clusters(provider)",
    query: "query($p: String) { clusters(filter: { provider: $p }) { totalCount } }",
    variables: (p) => ({ p }),
  },
  {
    name: "bindings(stream filter)",
    query: "query($s: String) { bindings(filter: { stream: $s }) { totalCount } }",
    variables: (s) => ({ s }),
  },
  {
    name: "changes(after)",
    query: "query($a: String) { changes(after: $a) { totalCount } }",
    variables: (a) => ({ a }),
  },
  { name: "createStream(name)", query: CREATE_STREAM, variables: (name) => ({ i: { name } }) },
  {
    name: "createStream(config value)",
    query: CREATE_STREAM,
    variables: (v) => ({ i: { name: "n1", config: cfg(v) } }),
  },
  {
    name: "createStream(config key)",
    query: CREATE_STREAM,
    variables: (v) => ({ i: { name: "n1", config: key(v) } }),
  },
  {
    name: "createStream(map name)",
    query: CREATE_STREAM,
    variables: (v) => ({ i: { name: "n1", config: map(v) } }),
  },
  {
    name: "createStream(producer config value)",
    query: CREATE_STREAM,
    variables: (v) => ({ i: { name: "n1", producerConfig: cfg(v) } }),
  },
  { name: "updateStream(name)", query: UPDATE_STREAM, variables: (name) => ({ i: { name } }) },
  {
    name: "updateStream(config value)",
    query: UPDATE_STREAM,
    variables: (v) => ({ i: { name: "s1", config: cfg(v) } }),
  },
  {
    name: "deleteStream(name)",
    query: "mutation($n: String!) { deleteStream(input: { name: $n }) { userErrors { code } } }",
    variables: (n) => ({ n }),
  },
  { name: "declareCluster(name)", query: DECLARE, variables: (name) => ({ i: { name } }) },
  {
    name: "declareCluster(provider)",
    query: DECLARE,
    variables: (provider) => ({ i: { name: "c9", provider } }),
  },
  {
    name: "declareCluster(config key)",
    query: DECLARE,
    variables: (v) => ({ i: { name: "c9", config: key(v) } }),
  },
  {
    name: "deleteCluster(name)",
    query: "mutation($n: String!) { deleteCluster(input: { name: $n }) { userErrors { code } } }",
    variables: (n) => ({ n }),
  },
  {
    name: "createBinding(stream)",
    query: CREATE_BINDING,
    variables: (stream) => ({ i: { stream, cluster: "c1" } }),
  },
  {
    name: "createBinding(cluster)",
    query: CREATE_BINDING,
    variables: (cluster) => ({ i: { stream: "s1", cluster } }),
  },
  {
    name: "updateBinding(config value)",
    query: UPDATE_BINDING,
    variables: (v) => ({ i: { stream: "s1", cluster: "c1", config: cfg(v) } }),
  },
  {
    name: "deleteBinding(cluster)",
    query:
      'mutation($c: String!) { deleteBinding(input: { stream: "s1", cluster: $c }) { userErrors { code } } }',
    variables: (c) => ({ c }),
  },
  {
    name: "_entities(Stream.name)",
    query: ENTITIES,
    variables: (name) => ({ r: [{ __typename: "Stream", namespace: "/", name }] }),
  },
  {
    name: "_entities(Binding.fqn)",
    query: ENTITIES,
    variables: (fqn) => ({ r: [{ __typename: "Binding", fqn }] }),
  },
  { name: "_entities(__typename)", query: ENTITIES, variables: (t) => ({ r: [{ __typename: t }] }) },
];

/** Every slot with every bad string, as a variable: the request must be INVALID_INPUT. */
export const badStringCases: HostileCase[] = slots.flatMap((slot) =>
  Object.entries(BAD_STRINGS).map(([label, bad]) => ({
    name: `${slot.name} with a ${label}`,
    request: { query: slot.query, variables: slot.variables(bad) },
    code: "INVALID_INPUT",
  })),
);

/**
 * The same strings as literals in the query text: NUL (escaped, or raw in a block string) is
 * INVALID_INPUT; a lone surrogate, escaped or raw, does not even lex.
 */
export const literalCases: HostileCase[] = [
  ...[
    'stream(name: "a\\u0000b") { name }',
    'streams(filter: { nameContains: "\\u0000" }) { totalCount }',
    'binding(stream: "s1", cluster: "c\\u0000") { fqn }',
    'changes(after: "\\u0000") { totalCount }',
    'stream(name: """block \u0000 string""") { name }',
  ].map((selection) => ({
    name: `literal ${selection}`,
    request: { query: `{ ${selection} }` },
    code: "INVALID_INPUT",
  })),
  ...[
    'stream(name: "\\ud800") { name }',
    'streams(filter: { nameStartsWith: "x\\udc00" }) { totalCount }',
    'stream(name: "\ud800") { name }',
    'stream(name: """\udfff""") { name }',
  ].map((selection) => ({
    name: `literal ${selection}`,
    request: { query: `{ ${selection} }` },
    code: "GRAPHQL_PARSE_FAILED",
  })),
];

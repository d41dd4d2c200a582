import type { HostileCase } from "./hostile-case.ts";

const LIMIT = "QUERY_LIMIT_EXCEEDED";
const nested = (pairs: number) =>
  `{ stream(name: "s1") { ${"bindings { stream { ".repeat(pairs)}name${" } }".repeat(pairs)} } }`;
const aliases = (n: number, selection: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(" ")} }`;
const page = "streams(first: 500) { nodes { name bindings { cluster { name } } } }";

/** Query bombs: each must be refused before it costs the registry memory or time. */
export const limitCases: HostileCase[] = [
  ...[7, 10, 19, 40].map((pairs) => ({
    name: `stream/bindings nested ${pairs} pairs deep`,
    request: { query: nested(pairs) },
    code: LIMIT,
  })),
  ...[31, 100, 1000].map((n) => ({
    name: `${n} aliases of a page of 500 streams with bindings`,
    request: { query: aliases(n, page) },
    code: LIMIT,
  })),
  { name: "31 aliases of namespace", request: { query: aliases(31, "namespace { path }") }, code: LIMIT },
  {
    name: "51 directives",
    request: { query: `{ namespace { path ${"@include(if: true) ".repeat(51)} } }` },
    code: LIMIT,
  },
  {
    name: "5,001 tokens",
    request: { query: `{ ${"__typename ".repeat(5_000)}}` },
    code: LIMIT,
  },
  { name: "500,000 tokens", request: { query: `{ ${"__typename ".repeat(500_000)}}` }, code: LIMIT },
  {
    name: "a page of 500 streams, each with its bindings' clusters' bindings",
    request: {
      query: `{ streams(first: 500) { nodes { bindings { cluster { bindings { stream { name } } } } } } }`,
    },
    code: LIMIT,
  },
  {
    name: "connections nested in entities: 200 representations each listing clusters",
    request: {
      query: `query($r: [_Any!]!) { _entities(representations: $r) { ... on Namespace { clusters(first: 500) { nodes { name } } } } }`,
      variables: { r: Array.from({ length: 200 }, () => ({ __typename: "Namespace", path: "/" })) },
    },
    code: LIMIT,
  },
  {
    name: "100,000 entity representations",
    request: {
      query: "query($r: [_Any!]!) { _entities(representations: $r) { __typename } }",
      variables: {
        r: Array.from({ length: 100_000 }, (_, i) => ({
          __typename: "Stream",
          namespace: "/",
          name: `s${i}`,
        })),
      },
    },
    code: LIMIT,
  },
  {
    name: "fragments that double at every level",
    request: {
      query:
        "{ ...F0 } " +
        Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(
          " ",
        ) +
        " fragment F20 on Query { __typename }",
    },
    code: LIMIT,
  },
  {
    name: "an introspection cycle (fields of types of fields ...)",
    request: {
      query: `{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }`,
    },
    code: "GRAPHQL_VALIDATION_FAILED",
  },
  {
    name: "3,000 copies of one field (graphql-js aborts the overlap check)",
    request: { query: `{ ${"__typename ".repeat(3_000)}}` },
    code: "GRAPHQL_VALIDATION_FAILED",
  },
];

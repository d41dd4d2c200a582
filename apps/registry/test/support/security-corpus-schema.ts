import { Q, type CorpusCase } from "./security-corpus.ts";
import {
  as,
  caseList,
  childOwn,
  FORBIDDEN,
  forwarded,
  noSuggestion,
  oidcReader,
  op,
  VALIDATION,
} from "./security-corpus-ops.ts";

// The corpus's looks at the schema in production: only admins (and the parent) see it, and no
// error suggests a name.

/** Introspection and _service by everyone else, in every form; typos answered without suggestions. */
export function schemaCases(): CorpusCase[] {
  const { cases, add } = caseList();
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
  add("schema", "an OIDC reader, __schema", "/", oidcReader, op("schema", Q.schema), SCHEMA_FORBIDDEN);
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
    forwarded("token:reader"),
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

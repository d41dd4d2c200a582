import { Q, type CorpusCase } from "./security-corpus.ts";
import { ADMIN, as, caseList, op, UNAUTHENTICATED } from "./security-corpus-ops.ts";

// The corpus's bombs and oversized bodies (the hardening corpus has the rest): refused before they cost.

const nested = (pairs: number) =>
  `{ stream(name: "widgets_a") { ${"bindings { stream { ".repeat(pairs)}name${" } }".repeat(pairs)} } }`;
const aliases = (n: number, selection: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(" ")} }`;
const LIMIT = { status: 400, code: "QUERY_LIMIT_EXCEEDED" } as const;
const INVALID = { status: 400, code: "INVALID_INPUT" } as const;
/** `{"d":{"d":...1...}}`, `levels` deep, as text: JSON.stringify itself overflows on it. */
const deepJson = (levels: number) => `${'{"d":'.repeat(levels)}1${"}".repeat(levels)}`;
/** A body whose variables hold `json` (text) at `at`, e.g. `{"input":{"name":"x","config":@}}`. */
const rawOp = (query: string, variables: string, mutates = false) => ({
  rawBody: `{"query":${JSON.stringify(query)},"variables":${variables}}`,
  mutates,
});
const ENTITY_NAME = `query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Stream { name } } }`;
const TOO_LARGE = { status: 413, code: "BAD_REQUEST" } as const;

/** Deep, wide and long documents, bodies over the limit, and batches. */
export function limitCases(): CorpusCase[] {
  const { cases, add } = caseList();
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
  // Issue 19, finding 7: a 5,000-deep field overflowed the stack (HTTP 500) where the value was
  // walked (a representation forwarded to its owner was JSON.stringify'd): refused at the edge.
  for (const [where, namespace, name] of [
    ["its owner /aws", "/aws", "aws_a"],
    ["this registry", "/", "widgets_a"],
  ] as const)
    add(
      "limits",
      `a reader, an _entities representation of ${where} with a 5,000-deep extra field`,
      "/",
      as("reader"),
      rawOp(
        ENTITY_NAME,
        `{"representations":[{"__typename":"Stream","namespace":"${namespace}","name":"${name}","extra":${deepJson(5_000)}}]}`,
      ),
      INVALID,
    );
  add(
    "limits",
    "a reader, a look-up passed through to /aws with an unused 5,000-deep variable",
    "/",
    as("reader"),
    rawOp(`{ stream(namespace: "/aws", name: "aws_a") { name } }`, `{"junk":${deepJson(5_000)}}`),
    INVALID,
  );
  add(
    "limits",
    "a writer, createStream with a config value 100 levels deep",
    "/",
    as("writer"),
    rawOp(Q.createStream, `{"input":{"name":"deep_s","config":{"m":{"k":${deepJson(100)}}}}}`, true),
    INVALID,
  );
  add(
    "limits",
    "a reader, an _entities literal 40 levels deep",
    "/",
    as("reader"),
    op(
      "deep literal",
      `{ _entities(representations: [{ __typename: "Stream", namespace: "/aws", name: "aws_a", x: ${"{ d: ".repeat(40)}1${" }".repeat(40)} }]) { __typename } }`,
    ),
    INVALID,
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
  add("limits", "an admin, an 11 MB body", "/", ADMIN, { rawBody: huge, mutates: true }, TOO_LARGE);
  add(
    "limits",
    "an admin, an 11 MB body at the child",
    "/aws",
    ADMIN,
    { rawBody: huge, mutates: true },
    TOO_LARGE,
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
  return cases;
}

import { type CorpusCase } from "./security-corpus.ts";
import { ADMIN, as, caseList, op, UNAUTHENTICATED } from "./security-corpus-ops.ts";

// The corpus's bombs and oversized bodies (the hardening corpus has the rest): refused before they cost.

const nested = (pairs: number) =>
  `{ stream(name: "widgets_a") { ${"bindings { stream { ".repeat(pairs)}name${" } }".repeat(pairs)} } }`;
const aliases = (n: number, selection: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(" ")} }`;
const LIMIT = { status: 400, code: "QUERY_LIMIT_EXCEEDED" } as const;
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

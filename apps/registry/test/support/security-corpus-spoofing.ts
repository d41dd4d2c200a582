import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { type CorpusCase } from "./security-corpus.ts";
import { AWS_OPS, caseList, FORBIDDEN, ROOT_OPS, UNAUTHENTICATED } from "./security-corpus-ops.ts";

// The corpus's headers that would be an identity, or the tree's own, from a caller: none is believed.

const SPOOFED: [string, Record<string, string>][] = [
  ["x-actor", { "x-actor": "token:admin" }],
  ["x-registry-hops and x-registry-budget-ms", { "x-registry-hops": "1", "x-registry-budget-ms": "30000" }],
  ["x-forwarded-for of the parent", { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" }],
  [
    "x-forwarded-user and x-remote-user",
    { "x-forwarded-user": "admin", "x-remote-user": "admin", "remote-user": "admin" },
  ],
  [
    "x-auth-request-user and x-forwarded-email",
    {
      "x-auth-request-user": "admin",
      "x-forwarded-email": "admin@acme.com",
      "x-forwarded-groups": "platform",
    },
  ],
  ["proxy-authorization with the admin token", { "proxy-authorization": `Bearer ${TEST_ADMIN_TOKEN}` }],
  [
    "a cookie with the admin token",
    { cookie: `authorization=Bearer ${TEST_ADMIN_TOKEN}; token=${TEST_ADMIN_TOKEN}` },
  ],
];

/** Spoofed headers, alone and beside a reader's token; the admin token where no credential is read. */
export function headerSpoofingCases(): CorpusCase[] {
  const { cases, add } = caseList();
  for (const [label, headers] of SPOOFED)
    for (const o of [ROOT_OPS[0]!, ROOT_OPS[4]!]) {
      add(
        "header spoofing",
        `${label} without a credential, ${o.label}`,
        "/",
        () => headers,
        o,
        UNAUTHENTICATED,
      );
      add(
        "header spoofing",
        `${label} with a reader's token, ${o.label}`,
        "/",
        (w) => ({ ...headers, authorization: `Bearer ${w.tokens.reader}` }),
        o,
        FORBIDDEN,
      );
    }
  add(
    "header spoofing",
    "the admin token as access_token in the query string",
    "/",
    () => ({}),
    { body: ROOT_OPS[0]!.body, search: `?access_token=${TEST_ADMIN_TOKEN}`, mutates: true },
    UNAUTHENTICATED,
  );
  add(
    "header spoofing",
    "the admin token in the request's extensions",
    "/",
    () => ({}),
    {
      body: {
        ...ROOT_OPS[0]!.body,
        extensions: { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } },
      },
      mutates: true,
    },
    UNAUTHENTICATED,
  );
  add(
    "header spoofing",
    "x-registry-hops of a forwarded request, to the child, without a credential",
    "/aws",
    () => ({ "x-registry-hops": "1" }),
    AWS_OPS[0]!,
    UNAUTHENTICATED,
  );
  return cases;
}

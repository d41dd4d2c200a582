import { describe, expect, it } from "vitest";
import { isEnrollmentOnly, isIdentityProbe } from "../src/auth/enrollment.ts";
import { checkPublicKeys } from "../src/auth/public-keys.ts";
import { ReplayCache } from "../src/auth/replay-cache.ts";

const X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

describe("isEnrollmentOnly", () => {
  const body = (query: string, operationName?: string) => ({
    query,
    ...(operationName ? { operationName } : {}),
  });

  it("lets through a mutation whose fields are only registering or unregistering a child", () => {
    expect(
      isEnrollmentOnly(
        body(
          "mutation R($i: RegisterChildRegistryInput!) { registerChildRegistry(input: $i) { userErrors { code } } }",
        ),
      ),
    ).toBe(true);
    expect(
      isEnrollmentOnly(
        body("mutation { a: unregisterChildRegistry(input: {}) { child { name } } __typename }"),
      ),
    ).toBe(true);
    expect(
      isEnrollmentOnly(
        body(
          "query Q { streams { totalCount } } mutation M { registerChildRegistry(input: {}) { userErrors { code } } }",
          "M",
        ),
      ),
    ).toBe(true);
  });

  it("refuses anything else: queries, other fields beside, fragments and directives at the root, what does not parse", () => {
    expect(isEnrollmentOnly(body("{ registerChildRegistry }"))).toBe(false);
    expect(
      isEnrollmentOnly(
        body(
          "mutation { registerChildRegistry(input: {}) { userErrors { code } } createStream(input: {}) { stream { name } } }",
        ),
      ),
    ).toBe(false);
    expect(
      isEnrollmentOnly(
        body("mutation { ...F } fragment F on Mutation { createStream(input: {}) { stream { name } } }"),
      ),
    ).toBe(false);
    expect(
      isEnrollmentOnly(
        body("mutation { registerChildRegistry(input: {}) @include(if: true) { userErrors { code } } }"),
      ),
    ).toBe(false);
    expect(
      isEnrollmentOnly(
        body(
          "query Q { streams { totalCount } } mutation M { registerChildRegistry(input: {}) { userErrors { code } } }",
        ),
      ),
    ).toBe(false);
    expect(isEnrollmentOnly(body("mutation {"))).toBe(false);
    expect(isEnrollmentOnly(undefined)).toBe(false);
    expect(isEnrollmentOnly({ extensions: { persistedQuery: { sha256Hash: "x" } } })).toBe(false);
  });
});

describe("isIdentityProbe", () => {
  const body = (query: string, operationName?: string) => ({
    query,
    ...(operationName ? { operationName } : {}),
  });

  it("lets through a query asking only this registry's id and public keys", () => {
    expect(isIdentityProbe(body("query RegistryIdentity { registry { id keys } }"))).toBe(true);
    expect(isIdentityProbe(body("{ r: registry { __typename id } }"))).toBe(true);
  });

  it("refuses anything more: other fields of the registry, fields beside it, fragments, directives, mutations", () => {
    for (const query of [
      "{ registry { id namespace } }",
      "{ registry { id: ancestors } }",
      "{ registry { id } streams { totalCount } }",
      "{ registry { ...F } } fragment F on RegistryInfo { ancestors }",
      "{ registry @include(if: true) { id } }",
      "{ registry { id @skip(if: false) } }",
      "{ registry }",
      "mutation { registry { id } }",
      "{ changes { totalCount } }",
      "{ registry {",
    ]) {
      expect(isIdentityProbe(body(query)), query).toBe(false);
    }
    expect(isIdentityProbe(undefined)).toBe(false);
  });
});

describe("ReplayCache", () => {
  it("accepts an id once while its token lives, and forgets it once expired", () => {
    const cache = new ReplayCache();
    expect(cache.add("a", 60_000, 0)).toBe("new");
    expect(cache.add("a", 60_000, 1_000)).toBe("replayed");
    expect(cache.add("b", 70_000, 1_000)).toBe("new");
    cache.prune(65_000);
    expect(cache.size).toBe(1);
  });
});

describe("checkPublicKeys", () => {
  it("takes up to 8 Ed25519 public JWKs with a key id, and refuses private keys and anything else", () => {
    const key = { kty: "OKP", crv: "Ed25519", x: X, kid: "k1" };
    expect(checkPublicKeys([key])).toBeUndefined();
    expect(checkPublicKeys([])).toBeUndefined();
    expect(checkPublicKeys([{ ...key, d: X }])).toMatch(/holds a private key/);
    expect(checkPublicKeys([{ ...key, kty: "RSA" }])).toMatch(/not an Ed25519 public key/);
    expect(checkPublicKeys([{ ...key, kid: undefined }])).toMatch(/has no key id/);
    expect(checkPublicKeys(Array(9).fill(key))).toMatch(/at most 8/);
    expect(checkPublicKeys("keys")).toMatch(/a list/);
  });
});

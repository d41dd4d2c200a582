import { mutate, startRedirectTrap, TREE_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";

// Started before the registry: its allow-list names the redirecting server, not the trap.
const redirects = await startRedirectTrap(307);
afterAll(() => redirects[Symbol.asyncDispose]());
const allowed = new URL(redirects.url).host;
const trapHost = new URL(redirects.trapUrl).host;

const DECLARE_PARENT = `mutation ($input: DeclareParentRegistryInput!) {
  declareParentRegistry(input: $input) { parent { url } userErrors { code field message } } }`;

/**
 * Issue 19, Must 4: a registry process in production calls another registry only at the URL its
 * allow-list checked. An allowed address that answers 307 to one that is not allowed gets a clear
 * refusal, and nothing (the enrollment token above all) reaches where the redirect pointed.
 */
describe("redirects at a registry process in production", () => {
  const registry = useRegistryProcess("pglite", {
    NODE_ENV: "production",
    REGISTRY_AUTH: "on",
    REGISTRY_CONNECT_ALLOW: allowed,
  });

  it("refuses a parent registry URL that answers a redirect: no link, nothing sent on", async () => {
    await mutate(
      registry(),
      `mutation { declareDefaultNamespace(input: { name: "leaf" }) { userErrors { code field message } } }`,
    );
    const url = `${redirects.url}/graphql`;
    const response = await registry().request<{
      declareParentRegistry: {
        parent: unknown;
        userErrors: { code: string; field: string[]; message: string }[];
      };
    }>(DECLARE_PARENT, { input: { url, token: TREE_TOKEN } });
    const payload = response.data?.declareParentRegistry;
    expect(payload?.parent).toBeNull();
    expect(payload?.userErrors).toHaveLength(1);
    expect(payload?.userErrors[0]!.field).toEqual(["input", "url"]);
    expect(payload?.userErrors[0]!.message).toContain(
      `registry at ${url} answered a redirect (HTTP 307 to ${trapHost}): redirects are not followed; configure the final URL`,
    );
    expect(redirects.asked()).toBeGreaterThan(0);
    expect(redirects.trapped()).toBe(0);
  }, 30_000);
});

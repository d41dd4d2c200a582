import { lineageOf } from "@stream-registry/core";
import { describe, expect, it } from "vitest";
import { actClaimOf, forwardedPrincipal } from "../src/auth/forwarded-principal.ts";

const [ROOT, AWS, US] = [
  "00000000-0000-4000-8000-000000000001",
  "00000000-0000-4000-8000-000000000002",
  "00000000-0000-4000-8000-000000000003",
];
const IDP = "https://login.acme.example";
/** /aws/us, whose parent /aws is below the root; one identity provider for the tree. */
const us = lineageOf({ id: US, path: "/aws/us", parentPath: "/aws", ancestors: [ROOT, AWS] }, IDP);
/** What /aws sends /aws/us for a request that entered the tree at the root. */
const throughRoot = { sub: `registry:${AWS}`, act: { sub: `registry:${ROOT}` } };

describe("forwardedPrincipal (issue 19)", () => {
  it("names the root's token with its issuer and chain, without the groups it carries", () => {
    const principal = forwardedPrincipal(
      { sub: "token:admin", sub_iss: `registry:${ROOT}`, groups: ["us-platform"], act: throughRoot },
      AWS,
      us,
    );
    expect(principal).toEqual({
      subject: "token:admin",
      issuer: `registry:${ROOT}`,
      issuerPath: "/",
      local: false,
      groups: [],
      via: "parent",
      chain: [
        { id: ROOT, path: "/" },
        { id: AWS, path: "/aws" },
      ],
    });
  });

  it("keeps the groups of a user of this registry's own identity provider, not of another's", () => {
    const own = forwardedPrincipal(
      { sub: "user:alice", sub_iss: IDP, groups: ["us-writers"], act: throughRoot },
      AWS,
      us,
    );
    expect(own).toMatchObject({ issuer: IDP, local: true, groups: ["us-writers"] });
    const other = forwardedPrincipal(
      { sub: "user:alice", sub_iss: "https://login.other.example", groups: ["us-writers"], act: throughRoot },
      AWS,
      us,
    );
    expect(other).toMatchObject({ local: false, groups: [] });
  });

  it.each([
    [
      "this registry as the issuer",
      { sub: "token:admin", sub_iss: `registry:${US}`, act: throughRoot },
      `the subject's issuer (sub_iss) registry:${US} is not the registry the request entered the tree at (registry:${ROOT})`,
    ],
    [
      "a token of this registry's identity provider",
      { sub: "token:admin", sub_iss: IDP, act: throughRoot },
      "only users have an OIDC issuer; token:admin's issuer is a registry",
    ],
    [
      "this registry in the chain",
      { sub: "token:admin", act: { sub: `registry:${AWS}`, act: { sub: `registry:${US}` } } },
      `claim act not valid: registry:${US} acts twice or is this registry`,
    ],
    [
      "an actor that is not the parent",
      { sub: "token:admin", act: { sub: `registry:${ROOT}` } },
      "the token's actor (act.sub) is not its issuer",
    ],
    [
      "a registry as subject",
      { sub: `registry:${ROOT}`, act: throughRoot },
      `a parent cannot act for registry:${ROOT}`,
    ],
  ])("refuses %s", (_, payload, reason) => {
    expect(() => forwardedPrincipal(payload, AWS, us)).toThrow(reason);
  });

  it("signs the chain it came through, the sender outermost", () => {
    const principal = forwardedPrincipal({ sub: "user:alice", sub_iss: IDP, act: throughRoot }, AWS, us);
    const self = "00000000-0000-4000-8000-000000000004";
    expect(actClaimOf(self, principal)).toEqual({ sub: `registry:${self}`, act: throughRoot });
  });
});

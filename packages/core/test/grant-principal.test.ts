import { describe, expect, it } from "vitest";
import { RegistryError } from "../src/errors.ts";
import { lineageOf, parseGrantPrincipal, showGrantPrincipal } from "../src/grant-principal.ts";

const [ROOT, AWS, US] = [
  "00000000-0000-4000-8000-000000000001",
  "00000000-0000-4000-8000-000000000002",
  "00000000-0000-4000-8000-000000000003",
];
const IDP = "https://login.acme.example";
/** The registry of /aws/us below /aws below the root, with the Acme identity provider. */
const us = lineageOf({ id: US, path: "/aws/us", parentPath: "/aws", ancestors: [ROOT, AWS] }, IDP);
const field = ["input", "principal"];

describe("lineageOf", () => {
  it("knows this registry and each ancestor by path, the parent one segment up", () => {
    expect(us.paths).toEqual(["/aws/us", "/aws", "/"]);
    expect([us.idAt("/"), us.idAt("/aws"), us.idAt("/aws/us"), us.idAt("/gcp")]).toEqual([
      ROOT,
      AWS,
      US,
      undefined,
    ]);
    expect(us.pathOf(ROOT)).toBe("/");
  });

  it("knows only itself without a parent", () => {
    const root = lineageOf({ id: ROOT, path: "/", parentPath: null, ancestors: [] }, undefined);
    expect(root.paths).toEqual(["/"]);
  });
});

describe("parseGrantPrincipal", () => {
  it.each([
    ["token:ci", "token:ci"],
    ["token:admin@/", `token:admin@registry:${ROOT}`],
    ["token:admin@/aws", `token:admin@registry:${AWS}`],
    [`token:admin@registry:${AWS}`, `token:admin@registry:${AWS}`],
    // This registry's own, qualified, is kept as its own.
    ["token:admin@/aws/us", "token:admin"],
    ["user:alice", "user:alice"],
    [`user:alice@${IDP}`, "user:alice"],
    ["user:bob@https://login.other.example", "user:bob@https://login.other.example"],
    // An "@" not followed by an issuer is part of the name.
    ["user:alice@example.com", "user:alice@example.com"],
    ["group:platform", "group:platform"],
  ])("keeps %j as %j", (entered, kept) => {
    expect(parseGrantPrincipal(entered, us, field)).toBe(kept);
  });

  it.each([
    [
      "token:admin@/gcp",
      "a token's issuer is this registry or one of its ancestors, by namespace path (/aws/us, /aws, /)",
    ],
    ["token:admin@https://login.acme.example", "a token's issuer is the registry that made it"],
    ["user:alice@/", "a user's issuer is the URL of an OIDC issuer"],
    ["group:us-platform@/", "a group names no issuer"],
    ["token:admin@/Bad Path", "is not valid"],
    ["robot:x@/", 'it must start with "user:", "group:", "token:"'],
    ["user:bob@https://login.other.example/\n", "its issuer contains white space or a control character"],
  ])("refuses %j: %s", (entered, why) => {
    let refusal: unknown;
    try {
      parseGrantPrincipal(entered, us, field);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(RegistryError);
    expect((refusal as RegistryError).field).toEqual(field);
    expect((refusal as RegistryError).message).toContain(why);
  });
});

describe("showGrantPrincipal", () => {
  it("shows an ancestor's token by the ancestor's path, and an unknown registry by its id", () => {
    expect(showGrantPrincipal(`token:admin@registry:${ROOT}`, us)).toBe("token:admin@/");
    const gone = "token:admin@registry:00000000-0000-4000-8000-000000000009";
    expect(showGrantPrincipal(gone, us)).toBe(gone);
    expect(showGrantPrincipal("user:bob@https://login.other.example", us)).toBe(
      "user:bob@https://login.other.example",
    );
  });
});

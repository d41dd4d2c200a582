import { describe, expect, it } from "vitest";
import { Access, grantNamesOf, type VisibleKind } from "../src/access.ts";
import { ErrorCode, RegistryError } from "../src/errors.ts";
import type { Grant, Role } from "../src/grant.ts";
import { actorOf, ANONYMOUS, ENROLLMENT, type Principal } from "../src/principal.ts";

const IDP = "https://login.example";
const alice: Principal = { subject: "user:alice", issuer: IDP, local: true, groups: ["devs"], via: "oidc" };
const ci: Principal = { subject: "token:ci", issuer: "registry:self", local: true, groups: [], via: "token" };
const parent: Principal = {
  subject: "registry:p-1",
  issuer: "registry:p-1",
  local: false,
  groups: [],
  via: "parent",
};
const forwarded: Principal = { ...alice, via: "parent", chain: [{ id: "p-1", path: "/" }] };
/** The parent's own token "ci", forwarded: not this registry's "ci", and its groups count for nothing. */
const parentsCi: Principal = {
  subject: "token:ci",
  issuer: "registry:p-1",
  issuerPath: "/",
  local: false,
  groups: ["devs"],
  via: "parent",
  chain: [{ id: "p-1", path: "/" }],
};

function grant(principal: string, role: Role, scope: string, streamPrefix: string | null = null): Grant {
  return { principal, role, scope, streamPrefix };
}

/** Alice's grants at the registry of /aws, with others' that must not count for her. */
const grants: Grant[] = [
  grant("user:alice", "reader", ""),
  grant("group:devs", "writer", "us-reg1", "widgets_"),
  grant("user:alice", "admin", "eu/dc1"),
  grant("user:bob", "admin", ""),
  grant("group:ops", "admin", ""),
  grant("token:ci", "writer", "", "ci_"),
];

describe("Access.can", () => {
  const access = Access.of(alice, grants, "/aws");
  it.each<[Role, string, string | undefined, boolean]>([
    ["reader", "", undefined, true],
    ["reader", "us-reg1/dc1", "anything", true],
    ["writer", "", "widgets_1", false],
    ["writer", "us-reg1", "widgets_1", true],
    ["writer", "us-reg1/dc2", "widgets_1", true],
    ["writer", "us-reg1", "gadgets", false],
    ["writer", "us-reg1", undefined, false],
    ["writer", "us-reg10", "widgets_1", false],
    ["admin", "eu/dc1", undefined, true],
    ["admin", "eu/dc1/x", "s", true],
    ["admin", "eu", undefined, false],
    ["admin", "eu/dc10", undefined, false],
    ["writer", "eu/dc1", "s", true],
    ["admin", "", undefined, false],
  ])("%s at %j for %j: %s", (role, below, stream, allowed) => {
    expect(access.can(role, below, stream)).toBe(allowed);
  });

  it("counts no grant of another principal or group", () => {
    const bob = Access.of({ ...alice, subject: "user:bob2", groups: ["dev"] }, grants, "/aws");
    expect(bob.can("reader", "")).toBe(false);
  });

  it("matches a token by its name, and its prefix", () => {
    const access = Access.of(ci, grants, "/aws");
    expect(access.can("writer", "", "ci_builds")).toBe(true);
    expect(access.can("writer", "", "builds")).toBe(false);
    expect(access.can("reader", "")).toBe(false);
  });

  it("gives everything to REGISTRY_AUTH=none's anonymous principal, whatever the grants", () => {
    const access = Access.of(ANONYMOUS, [], "/aws");
    expect(access.can("admin", "")).toBe(true);
    expect(access.visibility("stream")).toBe("all");
    expect(access.changes()).toEqual({ entries: "all", grants: "all" });
  });

  it("gives a parent on its own behalf the feed and documents, nothing else", () => {
    const access = Access.of(parent, grants, "/aws");
    expect(access.can("reader", "")).toBe(false);
    expect(access.can("writer", "", "s")).toBe(false);
    expect(access.can("admin", "")).toBe(false);
    expect(access.readsDocument("", "s")).toBe(true);
    expect(access.changes()).toEqual({ entries: "all", grants: "all" });
    expect(access.visibility("stream")).toEqual([]);
    expect(access.seesSchema()).toBe(true);
  });

  it("authorizes a user a parent forwarded as that user, with this registry's grants", () => {
    const access = Access.of(forwarded, grants, "/aws");
    expect(access.can("writer", "us-reg1", "widgets_1")).toBe(true);
    expect(access.can("writer", "", "widgets_1")).toBe(false);
    expect(access.readsDocument("us-reg1", "gadgets")).toBe(true);
  });

  it.each<[string, Principal]>([
    [
      "a child registry about its registration",
      { subject: "registry:c-1", issuer: "registry:c-1", local: false, groups: [], via: "child" },
    ],
    ["an enrollment request", ENROLLMENT],
  ])("gives %s no grant's rights", (_, principal) => {
    const access = Access.of(principal, grants, "/aws");
    expect(access.can("reader", "")).toBe(false);
    expect(access.readsDocument("", "s")).toBe(false);
    expect(access.visibility("stream")).toEqual([]);
    expect(access.changes()).toEqual({ entries: [], grants: [] });
    expect(access.seesSchema()).toBe(false);
  });

  it("denies by default: no grant, nothing", () => {
    const access = Access.of({ ...alice, subject: "user:nobody", groups: [] }, grants, "/aws");
    expect(access.can("reader", "")).toBe(false);
    expect(access.readsDocument("", "s")).toBe(false);
    expect(access.visibility("stream")).toEqual([]);
    expect(access.visibility("other")).toEqual([]);
    expect(access.changes()).toEqual({ entries: [], grants: [] });
    expect(access.seesSchema()).toBe(false);
    expect(access.knowsOf("us-reg1")).toBe(false);
  });
});

describe("Access.require", () => {
  it("refuses with FORBIDDEN naming the role and the absolute namespace", () => {
    const access = Access.of(alice, grants, "/aws");
    let error: unknown;
    try {
      access.require("writer", "", 'creating stream "gadgets"', "gadgets");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).code).toBe(ErrorCode.FORBIDDEN);
    expect((error as RegistryError).details).toEqual({ role: "writer", namespace: "/aws" });
    expect((error as RegistryError).message).toBe(
      'creating stream "gadgets" needs the writer role on namespace /aws: a grant on it or on a namespace above it covering stream "gadgets"',
    );
    expect(() => access.require("writer", "us-reg1", "x", "widgets_a")).not.toThrow();
  });

  it("names a namespace below the registry's by its absolute path", () => {
    const access = Access.of(alice, grants, "/");
    expect(() => access.require("admin", "aws/us-reg1", "declaring cluster")).toThrow(
      expect.objectContaining({ details: { role: "admin", namespace: "/aws/us-reg1" } }),
    );
  });
});

describe("Access.visibility", () => {
  it.each<[string, Grant[], VisibleKind, unknown]>([
    ["an unprefixed grant on its own namespace: all", [grant("user:alice", "reader", "")], "stream", "all"],
    [
      "a prefix narrows streams",
      [grant("user:alice", "reader", "", "w_")],
      "stream",
      [{ scope: "", prefix: "w_" }],
    ],
    ["a prefix gives nothing else", [grant("user:alice", "writer", "", "w_")], "other", []],
    [
      "a scope below",
      [grant("user:alice", "reader", "us-reg1")],
      "other",
      [{ scope: "us-reg1", prefix: null }],
    ],
    [
      "a scope covered by another goes",
      [grant("user:alice", "reader", "us-reg1/dc1"), grant("group:devs", "admin", "us-reg1")],
      "stream",
      [{ scope: "us-reg1", prefix: null }],
    ],
    [
      "a longer prefix covered by a shorter one goes",
      [grant("user:alice", "reader", "a", "w_x"), grant("user:alice", "writer", "a", "w_")],
      "stream",
      [{ scope: "a", prefix: "w_" }],
    ],
    [
      "the same pair twice is kept once",
      [grant("user:alice", "reader", "a"), grant("group:devs", "writer", "a")],
      "stream",
      [{ scope: "a", prefix: null }],
    ],
    [
      "sibling scopes stay",
      [grant("user:alice", "reader", "aws"), grant("user:alice", "reader", "aws2")],
      "stream",
      [
        { scope: "aws", prefix: null },
        { scope: "aws2", prefix: null },
      ],
    ],
    [
      "the change log counts scopes without a prefix",
      [grant("user:alice", "reader", "x", "w_"), grant("user:alice", "reader", "y")],
      "other",
      [{ scope: "y", prefix: null }],
    ],
  ])("%s", (_, given, kind, expected) => {
    const access = Access.of(alice, given, "/");
    expect(access.visibility(kind)).toEqual(expected);
    if (kind === "other") expect(access.changes().entries).toEqual(expected);
  });
});

describe("Access.requireGrantor: no escalation", () => {
  const admin = Access.of(alice, [grant("user:alice", "admin", "aws")], "/");
  it.each([
    ["aws", true],
    ["aws/us-reg1", true],
    ["", false],
    ["aws2", false],
    ["gcp", false],
  ])("an admin of /aws granting at %j: %s", (scope, allowed) => {
    const attempt = () => admin.requireGrantor(scope, "granting", ["input", "namespace"]);
    if (allowed) expect(attempt).not.toThrow();
    else
      expect(attempt).toThrow(
        expect.objectContaining({ code: ErrorCode.FORBIDDEN, field: ["input", "namespace"] }),
      );
  });

  it("a writer cannot grant, even in its own scope", () => {
    const writer = Access.of(alice, [grant("user:alice", "writer", "")], "/");
    expect(() => writer.requireGrantor("", "granting", ["input", "namespace"])).toThrow(
      expect.objectContaining({ code: ErrorCode.FORBIDDEN }),
    );
  });

  it("lists the scopes an admin administers, whose grants' change-log entries it reads", () => {
    expect(admin.adminScopes()).toEqual(["aws"]);
    expect(admin.changes().grants).toEqual([{ scope: "aws", prefix: null }]);
    expect(admin.grantsVisible()).toEqual({
      administers: [{ scope: "aws", prefix: null }],
      names: ["user:alice", "group:devs"],
    });
    expect(Access.of(alice, [grant("user:alice", "admin", "")], "/").adminScopes()).toBe("all");
    expect(Access.unrestricted("/").adminScopes()).toBe("all");
  });
});

describe("knowsOf and seesSchema", () => {
  const access = Access.of(alice, [grant("user:alice", "reader", "aws/us-reg1")], "/");
  it.each([
    ["aws", true],
    ["aws/us-reg1", true],
    ["aws/us-reg1/dc1", true],
    ["aws/us-reg2", false],
    ["gcp", false],
  ])("a reader of /aws/us-reg1 knows of %j: %s", (below, known) => {
    expect(access.knowsOf(below)).toBe(known);
  });

  it("shows the schema to an admin anywhere, not to a reader", () => {
    expect(access.seesSchema()).toBe(false);
    expect(Access.of(alice, [grant("group:devs", "admin", "x")], "/").seesSchema()).toBe(true);
  });
});

describe("grantNamesOf", () => {
  it.each<[Principal, string[]]>([
    [alice, ["user:alice", "group:devs"]],
    [ci, ["token:ci"]],
    [parentsCi, ["token:ci@registry:p-1"]],
    [
      { ...alice, issuer: "https://other.example", local: false, chain: [] },
      ["user:alice@https://other.example"],
    ],
    [parent, []],
    [ANONYMOUS, []],
  ])("%o answers to %j", (principal, names) => {
    expect(grantNamesOf(principal)).toEqual(names);
  });

  it("gives another registry's token of the same name none of this registry's token's grants", () => {
    const access = Access.of(parentsCi, grants, "/aws");
    expect(access.can("writer", "", "ci_1")).toBe(false);
    expect(access.can("writer", "us-reg1", "widgets_1")).toBe(false);
    expect(access.can("reader", "")).toBe(false);
    const granted = Access.of(parentsCi, [grant("token:ci@registry:p-1", "admin", "")], "/aws");
    expect(granted.can("admin", "")).toBe(true);
  });
});

describe("actorOf", () => {
  it.each<[Principal, string]>([
    [ci, "token:ci"],
    [forwarded, "user:alice via /"],
    [
      {
        ...parentsCi,
        chain: [
          { id: "p-1", path: "/" },
          { id: "p-2", path: "/aws" },
        ],
      },
      "token:ci@/ via /aws",
    ],
    [{ ...parentsCi, issuerPath: undefined, chain: [{ id: "p-1" }] }, "token:ci@registry:p-1"],
  ])("names %o %j", (principal, actor) => {
    expect(actorOf(principal)).toBe(actor);
  });
});

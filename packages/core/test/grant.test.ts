import { describe, expect, it } from "vitest";
import { ErrorCode, RegistryError } from "../src/errors.ts";
import {
  checkGrantPrincipal,
  checkStreamPrefix,
  parseRole,
  pathBelow,
  pathOfBelow,
  scopeCovers,
  scopeOf,
} from "../src/grant.ts";

const field = ["input", "scope"];

describe("scopeCovers: whole segments", () => {
  it.each([
    ["", "", true],
    ["", "aws", true],
    ["", "aws/us-reg1", true],
    ["aws", "aws", true],
    ["aws", "aws/us-reg1", true],
    ["aws", "aws/us-reg1/dc1", true],
    ["aws", "aws2", false],
    ["aws", "aws2/x", false],
    ["aws", "aw", false],
    ["aws", "", false],
    ["aws/us-reg1", "aws", false],
    ["aws/us-reg1", "aws/us-reg10", false],
    ["aws/us-reg1", "aws/us-reg1/x", true],
  ])("scope %j covers %j: %s", (scope, below, covered) => {
    expect(scopeCovers(scope, below)).toBe(covered);
  });
});

describe("pathBelow and pathOfBelow", () => {
  it.each([
    ["/", "/", ""],
    ["/", "/aws", "aws"],
    ["/", "/aws/us-reg1", "aws/us-reg1"],
    ["/aws", "/aws", ""],
    ["/aws", "/aws/us-reg1", "us-reg1"],
    ["/aws", "/aws2", undefined],
    ["/aws", "/aws2/x", undefined],
    ["/aws", "/", undefined],
    ["/aws/us-reg1", "/aws", undefined],
  ])("in %s, %s is %j below", (own, path, below) => {
    expect(pathBelow(own, path)).toBe(below);
    if (below !== undefined) expect(pathOfBelow(own, below)).toBe(path);
  });
});

describe("scopeOf", () => {
  it("keeps a scope below the registry's namespace", () => {
    expect(scopeOf("/aws", "/aws/us-reg1", field)).toBe("us-reg1");
    expect(scopeOf("/aws", "/aws", field)).toBe("");
  });

  it.each([
    ["/", "outside this registry's namespace /aws"],
    ["/aws2", "outside this registry's namespace /aws"],
    ["/gcp/x", "outside this registry's namespace /aws"],
    ["aws", 'must start with "/"'],
    ["/aws/", 'must not end with "/"'],
    ["", "must not be empty"],
    ["/aws/bad name", "invalid character"],
  ])("refuses %j naming the field (%s)", (path, message) => {
    const error = (() => {
      try {
        scopeOf("/aws", path, field);
      } catch (e) {
        return e;
      }
    })() as RegistryError;
    expect(error).toBeInstanceOf(RegistryError);
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.field).toEqual(field);
    expect(error.message).toContain(message);
  });
});

describe("parseRole", () => {
  it.each([
    ["reader", "reader"],
    ["WRITER", "writer"],
    ["Admin", "admin"],
  ])("reads %j as %s", (text, role) => {
    expect(parseRole(text, ["input", "role"])).toBe(role);
  });

  it.each(["owner", "", "readers", "root"])("refuses %j naming the field", (text) => {
    expect(() => parseRole(text, ["input", "role"])).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_INPUT, field: ["input", "role"] }),
    );
  });
});

describe("checkGrantPrincipal", () => {
  it.each([
    "user:alice",
    "group:devs",
    "token:ci",
    "user:auth0|5f7c8ec7c33c6c004bbafe82",
    "group:Data Engineers",
  ])("accepts %j", (principal) => {
    expect(checkGrantPrincipal(principal, ["input", "principal"])).toBeUndefined();
  });

  it.each([
    ["alice", 'must start with "user:", "group:", "token:"'],
    ["registry:1234", 'must start with "user:"'],
    ["anonymous", 'must start with "user:"'],
    ["user:", "must not be empty"],
    ["group:a\nb", "control character"],
    ["user: alice", "white space"],
    [`user:${"x".repeat(257)}`, "more than 256"],
    ["user:a\u0000", "NUL"],
  ])("refuses %j (%s)", (principal, message) => {
    const error = checkGrantPrincipal(principal, ["input", "principal"]);
    expect(error?.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error?.field).toEqual(["input", "principal"]);
    expect(error?.message).toContain(message);
  });
});

describe("checkStreamPrefix", () => {
  it.each(["widgets_", "w", "a.b-c_", "x".repeat(249)])("accepts %j", (prefix) => {
    expect(checkStreamPrefix(prefix, ["input", "streamPrefix"])).toBeUndefined();
  });

  it.each([
    ["", "must not be empty"],
    ["wid gets", 'character " " at position 4'],
    ["a/b", 'character "/"'],
    ["x".repeat(250), "longer than a stream name"],
  ])("refuses %j (%s)", (prefix, message) => {
    expect(checkStreamPrefix(prefix, ["input", "streamPrefix"])?.message).toContain(message);
  });
});

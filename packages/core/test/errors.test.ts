import { describe, expect, it } from "vitest";
import { ErrorCode, RegistryError, userError } from "../src/errors.ts";

describe("ErrorCode", () => {
  it("has exactly the agreed members, each valued by its own name", () => {
    expect(Object.entries(ErrorCode)).toEqual([
      ["INVALID_INPUT", "INVALID_INPUT"],
      ["NOT_FOUND", "NOT_FOUND"],
      ["ALREADY_EXISTS", "ALREADY_EXISTS"],
      ["IN_USE", "IN_USE"],
      ["BEING_DELETED", "BEING_DELETED"],
      ["PROVIDER_REJECTED", "PROVIDER_REJECTED"],
      ["PROVIDER_UNAVAILABLE", "PROVIDER_UNAVAILABLE"],
      ["INCOMPATIBLE", "INCOMPATIBLE"],
      ["UNSUPPORTED", "UNSUPPORTED"],
      ["UNAUTHENTICATED", "UNAUTHENTICATED"],
      ["FORBIDDEN", "FORBIDDEN"],
      ["QUERY_LIMIT_EXCEEDED", "QUERY_LIMIT_EXCEEDED"],
      ["RATE_LIMITED", "RATE_LIMITED"],
      ["DATABASE_UNAVAILABLE", "DATABASE_UNAVAILABLE"],
      ["CHILD_UNAVAILABLE", "CHILD_UNAVAILABLE"],
      ["INTERNAL_SERVER_ERROR", "INTERNAL_SERVER_ERROR"],
    ]);
  });
});

describe("userError", () => {
  it("builds a plain UserError", () => {
    expect(userError(ErrorCode.NOT_FOUND, ["input", "stream"], 'stream "x" does not exist')).toEqual({
      code: "NOT_FOUND",
      field: ["input", "stream"],
      message: 'stream "x" does not exist',
    });
  });

  it("copies the field path so later changes to the caller's array do not leak in", () => {
    const path = ["input"];
    const error = userError(ErrorCode.INVALID_INPUT, path, "bad");
    path.push("name");
    expect(error.field).toEqual(["input"]);
  });
});

describe("RegistryError", () => {
  it("is an Error carrying code, message and field", () => {
    const error = new RegistryError(ErrorCode.IN_USE, "stream has bindings", ["input", "name"]);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error.name).toBe("RegistryError");
    expect(error.code).toBe(ErrorCode.IN_USE);
    expect(error.message).toBe("stream has bindings");
    expect(error.field).toEqual(["input", "name"]);
    expect(error.stack).toContain("stream has bindings");
  });

  it("defaults field to an empty path", () => {
    expect(new RegistryError(ErrorCode.INTERNAL_SERVER_ERROR, "boom").field).toEqual([]);
  });

  it("converts to a UserError that does not share the field array", () => {
    const error = new RegistryError(ErrorCode.ALREADY_EXISTS, 'stream "s" already exists', ["input", "name"]);
    const converted = error.toUserError();
    expect(converted).toEqual({
      code: ErrorCode.ALREADY_EXISTS,
      field: ["input", "name"],
      message: 'stream "s" already exists',
    });
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    converted.field.push("x");
    expect(error.field).toEqual(["input", "name"]);
  });

  it("does not share the field array it was constructed with", () => {
    const path = ["fqn"];
    const error = new RegistryError(ErrorCode.INVALID_INPUT, "bad", path);
    path.push("more");
    expect(error.field).toEqual(["fqn"]);
  });
});

import { describe, expect, it } from "vitest";
import { ErrorCode, RegistryError } from "../src/errors.ts";
import {
  MAX_NAME_LENGTH,
  ROOT_NAMESPACE,
  checkName,
  checkNamespacePath,
  formatFqn,
  parseFqn,
} from "../src/names.ts";

const field = ["input", "name"];

describe("checkName", () => {
  it("caps names at Kafka's 249 characters", () => {
    expect(MAX_NAME_LENGTH).toBe(249);
  });

  it.each([
    "widgets_v0",
    "cluster001",
    "a",
    "A-Z.a_z-0.9",
    "...",
    ".hidden",
    "a..b",
    "-",
    "_",
    "x".repeat(249),
  ])("accepts %j", (name) => {
    expect(checkName(name, field, "stream name")).toBeUndefined();
  });

  it.each([
    ["", "stream name must not be empty"],
    [".", 'stream name must not be "." or ".."'],
    ["..", 'stream name must not be "." or ".."'],
    ["x".repeat(250), "stream name is 250 characters long; the maximum is 249"],
    ["x".repeat(10_000), "stream name is 10000 characters long; the maximum is 249"],
    [
      "a b",
      'stream name "a b" has invalid character " " at position 2; allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      "a/b",
      'stream name "a/b" has invalid character "/" at position 2; allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      "café",
      'stream name "café" has invalid character "é" at position 4; allowed are letters, digits, ".", "_" and "-"',
    ],
    // Emoji take two UTF-16 units; the position counts characters, not units.
    [
      "🚀🚀x?",
      'stream name "🚀🚀x?" has invalid character "🚀" at position 1; allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      "ab\n",
      'stream name "ab\\n" has invalid character "\\n" at position 3; allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      'a"b',
      'stream name "a\\"b" has invalid character "\\"" at position 2; allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      "a\u0000",
      'stream name "a\\u0000" has invalid character "\\u0000" at position 2; allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      "widgets v0!",
      'stream name "widgets v0!" has invalid character " " at position 8; allowed are letters, digits, ".", "_" and "-"',
    ],
  ])("rejects %j", (name, message) => {
    expect(checkName(name, field, "stream name")).toEqual({ code: ErrorCode.INVALID_INPUT, field, message });
  });

  it("counts length in characters, so 200 emoji are reported for their characters", () => {
    const error = checkName("🚀".repeat(200), field, "cluster name");
    expect(error?.message).toContain('has invalid character "🚀" at position 1');
  });

  it("uses the caller's field and description", () => {
    expect(checkName("", ["input", "cluster"], "cluster name")).toEqual({
      code: ErrorCode.INVALID_INPUT,
      field: ["input", "cluster"],
      message: "cluster name must not be empty",
    });
  });
});

describe("formatFqn", () => {
  it.each([
    ["/", "cluster001", "widgets_v0", "/cluster001/widgets_v0"],
    [ROOT_NAMESPACE, "c", "s", "/c/s"],
    ["/foo/bar/baz", "cluster001", "widgets_v0", "/foo/bar/baz/cluster001/widgets_v0"],
    [
      "/brickco/aws/us-reg1-xyz",
      "cluster034",
      "widgets_v0",
      "/brickco/aws/us-reg1-xyz/cluster034/widgets_v0",
    ],
  ])("formats (%j, %j, %j) as %j", (namespace, cluster, stream, fqn) => {
    expect(formatFqn(namespace, cluster, stream)).toBe(fqn);
  });
});

describe("parseFqn", () => {
  it.each([
    [
      "/foo/bar/baz/cluster001/widgets_v0",
      { namespace: "/foo/bar/baz", cluster: "cluster001", stream: "widgets_v0" },
    ],
    ["/cluster001/widgets_v0", { namespace: "/", cluster: "cluster001", stream: "widgets_v0" }],
    ["/aws/c.1/s-2", { namespace: "/aws", cluster: "c.1", stream: "s-2" }],
  ])("parses %j", (fqn, parts) => {
    expect(parseFqn(fqn)).toEqual(parts);
    expect(formatFqn(parts.namespace, parts.cluster, parts.stream)).toBe(fqn);
  });

  it.each([
    ["", 'must start with "/"'],
    ["cluster001/widgets_v0", 'must start with "/"'],
    ["/", "must name at least a cluster and a stream"],
    ["/widgets_v0", "must name at least a cluster and a stream"],
    ["/cluster001/", "stream name must not be empty"],
    ["//widgets_v0", "cluster name must not be empty"],
    ["//c/s", "namespace segment 1 must not be empty"],
    ["/a//c/s", "namespace segment 2 must not be empty"],
    ["/a b/c/s", 'namespace segment 1 "a b" has invalid character " " at position 2'],
    ["/./c/s", 'namespace segment 1 must not be "." or ".."'],
    ["/ns/../s", 'cluster name must not be "." or ".."'],
    ["/ns/c/wid gets", 'stream name "wid gets" has invalid character " " at position 4'],
    [`/c/${"s".repeat(250)}`, "stream name is 250 characters long; the maximum is 249"],
  ])("rejects %j", (fqn, reason) => {
    let thrown: unknown;
    try {
      parseFqn(fqn);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RegistryError);
    const error = thrown as RegistryError;
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.field).toEqual(["fqn"]);
    expect(error.message).toContain(`fqn ${JSON.stringify(fqn).slice(0, 40)}`);
    expect(error.message).toContain(`is not valid: ${reason}`);
  });

  it("accepts the longest valid segments and rejects one character more", () => {
    const max = "s".repeat(249);
    expect(parseFqn(`/${max}/${max}/${max}`)).toEqual({ namespace: `/${max}`, cluster: max, stream: max });
    expect(() => parseFqn(`/${max}x/${max}/${max}`)).toThrow("namespace segment 1 is 250 characters long");
  });
});

describe("checkNamespacePath", () => {
  it.each(["/", "/aws", "/aws/us-reg1-xyz", "/brickco/aws/us-reg1-xyz", `/${"n".repeat(249)}`])(
    "accepts %j",
    (path) => {
      expect(checkNamespacePath(path, ["namespace"])).toBeUndefined();
    },
  );

  it.each([
    ["", 'namespace "" is not valid: must not be empty; the root namespace is "/"'],
    ["aws", 'namespace "aws" is not valid: must start with "/"'],
    ["/aws/", 'namespace "/aws/" is not valid: must not end with "/"'],
    ["//", 'namespace "//" is not valid: must not end with "/"'],
    ["/a//b", 'namespace "/a//b" is not valid: namespace segment 2 must not be empty'],
    ["/.", 'namespace "/." is not valid: namespace segment 1 must not be "." or ".."'],
    ["/aws/..", 'namespace "/aws/.." is not valid: namespace segment 2 must not be "." or ".."'],
    [
      "/us reg",
      'namespace "/us reg" is not valid: namespace segment 1 "us reg" has invalid character " " at position 3; ' +
        'allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      "/ünï",
      'namespace "/ünï" is not valid: namespace segment 1 "ünï" has invalid character "ü" at position 1; ' +
        'allowed are letters, digits, ".", "_" and "-"',
    ],
    [
      `/${"n".repeat(250)}`,
      expect.stringContaining("namespace segment 1 is 250 characters long; the maximum is 249"),
    ],
  ])("rejects %j", (path, message) => {
    expect(checkNamespacePath(path, ["input", "namespace"])).toEqual({
      code: ErrorCode.INVALID_INPUT,
      field: ["input", "namespace"],
      message,
    });
  });

  it("quotes an overlong path truncated, not whole", () => {
    const error = checkNamespacePath(`/${"n".repeat(5000)}`, ["namespace"]);
    expect(error?.message.length).toBeLessThan(200);
  });
});

import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../src/cursor.ts";
import { ErrorCode, RegistryError } from "../src/errors.ts";

function decodeError(cursor: string, field?: string[]): RegistryError {
  try {
    decodeCursor(cursor, "streams", field);
  } catch (error) {
    if (error instanceof RegistryError) return error;
    throw error;
  }
  throw new Error(`cursor ${JSON.stringify(cursor)} was accepted`);
}

const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64url");

describe("encodeCursor / decodeCursor", () => {
  it.each([
    [{}],
    [{ name: "widgets_v0" }],
    [{ namespace: "/aws", cluster: "cluster001", name: "widgets_v0", id: 42 }],
    [{ n: 0, negative: -7, fraction: 1.5, empty: "" }],
    [{ unicode: "ключ 🚀", quote: '"', slash: "/+=" }],
  ])("round-trips %j", (value) => {
    const cursor = encodeCursor("streams", value);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, "streams")).toEqual(value);
  });

  it("is base64url of the JSON, naming its list", () => {
    expect(encodeCursor("streams", { name: "a" })).toBe(b64('{"@list":"streams","name":"a"}'));
  });

  it("is refused by another list, naming `after` and the list it belongs to (issue 19, finding 10)", () => {
    const error = decodeError(encodeCursor("clusters", { name: "a" }));
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.field).toEqual(["after"]);
    expect(error.message).toMatch(/^after is a cursor of the list "clusters", not of streams/);
  });

  it("refuses a cursor that names no list", () => {
    expect(decodeError(b64('{"name":"a"}')).message).toMatch(/not a cursor issued by this server$/);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])("refuses to encode the number %s", (value) => {
    expect(() => encodeCursor("streams", { id: value })).toThrow(RangeError);
  });
});

describe("decodeCursor", () => {
  it.each([
    ["empty", "", "not base64url"],
    ["not base64url", "!!!", "not base64url"],
    ["standard base64 characters", Buffer.from('{"a":"??>"}').toString("base64"), "not base64url"],
    ["padding", `${b64("{}")}=`, "not base64url"],
    ["whitespace", ` ${b64("{}")}`, "not base64url"],
    ["an impossible length", "e30ab", "not base64url"],
    ["leftover bits", "e31", "not base64url"],
    ["not JSON", b64("widgets_v0"), "not a cursor issued by this server"],
    ["truncated JSON", b64('{"name":"wid'), "not a cursor issued by this server"],
    ["a JSON array", b64('["a"]'), "not a cursor issued by this server"],
    ["JSON null", b64("null"), "not a cursor issued by this server"],
    ["a JSON string", b64('"widgets"'), "not a cursor issued by this server"],
    ["a JSON number", b64("42"), "not a cursor issued by this server"],
    ["a nested object", b64('{"a":{"b":1}}'), "not a cursor issued by this server"],
    ["a boolean value", b64('{"a":true}'), "not a cursor issued by this server"],
    ["a null value", b64('{"a":null}'), "not a cursor issued by this server"],
    ["an array value", b64('{"a":[1]}'), "not a cursor issued by this server"],
    [
      "invalid UTF-8",
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString("base64url"),
      "not a cursor issued by this server",
    ],
    ["too long", b64(JSON.stringify({ a: "x".repeat(5000) })), "longer than 4096 characters"],
    ["unicode", "ключ", "not base64url"],
  ])("rejects %s", (_label, cursor, reason) => {
    const error = decodeError(cursor);
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.field).toEqual(["after"]);
    expect(error.message).toMatch(/^cursor ".*"…? is not valid: /);
    expect(error.message.endsWith(`is not valid: ${reason}`)).toBe(true);
  });

  it("names the cursor in the message", () => {
    expect(decodeError("!!!").message).toBe('cursor "!!!" is not valid: not base64url');
  });

  it("truncates a long cursor in the message", () => {
    const message = decodeError("!".repeat(10_000)).message;
    expect(message).toContain(`"${"!".repeat(64)}"…`);
    expect(message.length).toBeLessThan(150);
  });

  it("reports at the caller's field", () => {
    expect(decodeError("!!!", ["input", "before"]).field).toEqual(["input", "before"]);
  });

  it("accepts a cursor at the length limit", () => {
    const value = { a: "x".repeat(3040) };
    const cursor = encodeCursor("streams", value);
    expect(cursor.length).toBeLessThanOrEqual(4096);
    expect(decodeCursor(cursor, "streams")).toEqual(value);
  });
});

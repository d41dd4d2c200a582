import { describe, expect, it } from "vitest";
import { describeValue, isPlainObject } from "../src/plain-object.ts";

describe("isPlainObject", () => {
  it.each([
    ["an object literal", {}],
    ["parsed JSON", JSON.parse('{"a":1}') as unknown],
    ["a null-prototype object", Object.create(null) as unknown],
  ])("accepts %s", (_label, value) => {
    expect(isPlainObject(value)).toBe(true);
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["an array", []],
    ["a string", "{}"],
    ["a number", 1],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    ["a class instance", new (class Config {})()],
    ["an object with a custom prototype", Object.create({ inherited: 1 }) as unknown],
    ["a function", () => ({})],
  ])("rejects %s", (_label, value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});

describe("describeValue", () => {
  it.each([
    [null, "null"],
    [[1], "array"],
    [{}, "object"],
    ["s", "string"],
    [1, "number"],
    [Number.NaN, "NaN"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    [true, "boolean"],
    [undefined, "undefined"],
    [1n, "bigint"],
  ])("describes %s as %s", (value, description) => {
    expect(describeValue(value)).toBe(description);
  });
});

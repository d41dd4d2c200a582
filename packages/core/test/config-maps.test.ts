import { describe, expect, it } from "vitest";
import { checkConfigMaps, configMapsEqual, mergeConfigMaps } from "../src/config-maps.ts";
import type { ConfigMaps } from "../src/config-maps.ts";
import { ErrorCode } from "../src/errors.ts";

const field = ["input", "config"];

// The seed's CREATE STREAM "widgets_v0" config.
const widgets: ConfigMaps = {
  "acme.kafka": { owner: "bob@acme.com", team: "widgets-team", costcenter: "341D" },
  "apache.kafka": {
    partitions: 10,
    replication: 4,
    min_isr: 2,
    compacted: "true",
    compression: "snappy",
    "unclean.leader.election.enable": "false",
    "key.serde": "string",
    "value.serde": "specific",
  },
};

describe("checkConfigMaps", () => {
  it.each([
    ["the seed's stream config", widgets],
    ["no maps", {}],
    ["an empty map", { "apache.kafka": {} }],
    ["a hyphenated map name", { "s3-sink": { bucket: "b" } }],
    ["a map name starting with a digit", { "0day.kafka": { a: 1 } }],
    ["booleans, zero and negative numbers", { m: { a: true, b: false, c: 0, d: -1.5, e: "" } }],
    ["a null-prototype object", Object.assign(Object.create(null) as object, { m: { a: 1 } })],
    ["longest map name and key", { ["m".repeat(249)]: { ["k".repeat(249)]: "v" } }],
    ["unicode keys and values", { m: { ключ: "значение 🚀" } }],
  ])("accepts %s", (_label, value) => {
    expect(checkConfigMaps(value, field)).toEqual([]);
  });

  it.each([
    ["null", null, "null"],
    ["an array", [{ a: 1 }], "array"],
    ["a string", '{"apache.kafka":{}}', "string"],
    ["a number", 42, "number"],
    ["undefined", undefined, "undefined"],
    ["a Date", new Date(0), "object"],
    ["a Map", new Map([["apache.kafka", {}]]), "object"],
  ])("rejects %s as a whole, at the given field", (_label, value, got) => {
    expect(checkConfigMaps(value, field)).toEqual([
      {
        code: ErrorCode.INVALID_INPUT,
        field,
        message: `config maps must be an object of config maps, got ${got}`,
      },
    ]);
  });

  it.each([
    ["", "config map name must not be empty"],
    [
      ".kafka",
      'config map name ".kafka" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "-kafka",
      'config map name "-kafka" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "_kafka",
      'config map name "_kafka" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "apache kafka",
      'config map name "apache kafka" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "apache/kafka",
      'config map name "apache/kafka" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "kafkä",
      'config map name "kafkä" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    [
      "__proto__",
      'config map name "__proto__" must start with a letter or digit and contain only letters, digits, ".", "_" and "-"',
    ],
    ["m".repeat(250), "config map name is 250 characters long; the maximum is 249"],
  ])("rejects the map name %j", (name, message) => {
    const value = JSON.parse(JSON.stringify({ [name]: { a: 1 } })) as unknown;
    expect(checkConfigMaps(value, field)).toEqual([
      { code: ErrorCode.INVALID_INPUT, field: [...field, name], message },
    ]);
  });

  it.each([
    ["null", null, "null"],
    ["an array", [["a", 1]], "array"],
    ["a string", "partitions=10", "string"],
    ["a number", 10, "number"],
    ["a boolean", true, "boolean"],
  ])("rejects a map that is %s", (_label, map, got) => {
    expect(checkConfigMaps({ "apache.kafka": map }, field)).toEqual([
      {
        code: ErrorCode.INVALID_INPUT,
        field: [...field, "apache.kafka"],
        message: `config map "apache.kafka" must be an object of key-value pairs, got ${got}`,
      },
    ]);
  });

  it.each([
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["NaN", Number.NaN, "NaN"],
    ["Infinity", Number.POSITIVE_INFINITY, "Infinity"],
    ["-Infinity", Number.NEGATIVE_INFINITY, "-Infinity"],
    ["an array", [1, 2], "array"],
    ["a nested object", { nested: 1 }, "object"],
    ["a bigint", 10n, "bigint"],
    ["a function", () => 1, "function"],
  ])("rejects a value that is %s", (_label, value, got) => {
    expect(checkConfigMaps({ "apache.kafka": { partitions: value } }, field)).toEqual([
      {
        code: ErrorCode.INVALID_INPUT,
        field: [...field, "apache.kafka", "partitions"],
        message: `config map "apache.kafka" key "partitions" must be a string, a finite number or a boolean, got ${got}`,
      },
    ]);
  });

  it.each([
    ["", 'config map "m" has an empty key; keys must not be empty'],
    ["k".repeat(250), 'config map "m" has a key 250 characters long; the maximum is 249'],
    // An own "__proto__" key, as JSON.parse produces, would replace the prototype of any object it is assigned into.
    ["__proto__", 'config map "m" must not have the key "__proto__"'],
  ])("rejects the key %j", (key, message) => {
    const value = JSON.parse(`{"m":{${JSON.stringify(key)}:"v"}}`) as unknown;
    expect(checkConfigMaps(value, field)).toEqual([
      { code: ErrorCode.INVALID_INPUT, field: [...field, "m", key], message },
    ]);
  });

  it("reports every error, not only the first, in input order", () => {
    const errors = checkConfigMaps(
      {
        "apache.kafka": { partitions: null, replication: 3, acks: [1] },
        "bad name": { ok: "yes", nested: {} },
        "acme.kafka": "owner=bob",
      },
      field,
    );
    expect(errors.map((error) => error.field)).toEqual([
      [...field, "apache.kafka", "partitions"],
      [...field, "apache.kafka", "acks"],
      [...field, "bad name"],
      [...field, "bad name", "nested"],
      [...field, "acme.kafka"],
    ]);
    expect(errors.every((error) => error.code === ErrorCode.INVALID_INPUT)).toBe(true);
  });

  it("quotes an overlong value-less key truncated in messages", () => {
    const [error] = checkConfigMaps({ m: { ["k".repeat(200)]: null } }, []);
    expect(error?.message).toContain("…");
    expect(error?.message.length).toBeLessThan(200);
  });
});

describe("mergeConfigMaps", () => {
  it("lets binding-level keys win within a map, keeping keys and maps from both sides", () => {
    const binding: ConfigMaps = {
      "apache.kafka": { partitions: 20, "retention.ms": 86_400_000 },
      "cluster002.kafka": { rack: "r1" },
    };
    expect(mergeConfigMaps(widgets, binding)).toEqual({
      "acme.kafka": widgets["acme.kafka"],
      "apache.kafka": { ...widgets["apache.kafka"], partitions: 20, "retention.ms": 86_400_000 },
      "cluster002.kafka": { rack: "r1" },
    });
  });

  it("keeps base order for maps and keys, then appends new ones in override order", () => {
    const merged = mergeConfigMaps(
      { b: { y: 1, x: 2 }, a: { k: 1 } },
      { c: { z: 1 }, a: { n: 2, k: 3 }, b: { w: 0 } },
    );
    expect(Object.keys(merged)).toEqual(["b", "a", "c"]);
    expect(Object.keys(merged.b ?? {})).toEqual(["y", "x", "w"]);
    expect(Object.keys(merged.a ?? {})).toEqual(["k", "n"]);
    expect(merged.a).toEqual({ k: 3, n: 2 });
  });

  it("lets falsy override values win", () => {
    expect(mergeConfigMaps({ m: { a: 1, b: true, c: "x" } }, { m: { a: 0, b: false, c: "" } })).toEqual({
      m: { a: 0, b: false, c: "" },
    });
  });

  it("does not mutate or share structure with its inputs", () => {
    const base: ConfigMaps = { m: { a: 1 }, only: { b: 2 } };
    const override: ConfigMaps = { m: { a: 2 }, extra: { c: 3 } };
    const baseCopy = structuredClone(base);
    const overrideCopy = structuredClone(override);
    const merged = mergeConfigMaps(base, override);
    expect(base).toEqual(baseCopy);
    expect(override).toEqual(overrideCopy);
    expect(merged.only).not.toBe(base.only);
    expect(merged.extra).not.toBe(override.extra);
    (merged.only as Record<string, number>).b = 99;
    expect(base.only?.b).toBe(2);
  });

  it("handles empty sides", () => {
    expect(mergeConfigMaps({}, {})).toEqual({});
    expect(mergeConfigMaps(widgets, {})).toEqual(widgets);
    expect(mergeConfigMaps({}, widgets)).toEqual(widgets);
  });

  it("treats names that exist on Object.prototype as ordinary names", () => {
    const merged = mergeConfigMaps({ constructor: { toString: "a" } }, { hasOwnProperty: { valueOf: 1 } });
    expect(merged).toEqual({ constructor: { toString: "a" }, hasOwnProperty: { valueOf: 1 } });
    expect(mergeConfigMaps({ m: { a: 1 } }, { m: { constructor: "c" } })).toEqual({
      m: { a: 1, constructor: "c" },
    });
  });

  it("keeps an own __proto__ key as data rather than a prototype", () => {
    const override = JSON.parse('{"m":{"__proto__":"x"}}') as ConfigMaps;
    const merged = mergeConfigMaps({ m: { a: 1 } }, override);
    expect(Object.getPrototypeOf(merged.m)).toBe(Object.prototype);
    expect(Object.keys(merged.m ?? {})).toEqual(["a", "__proto__"]);
  });
});

describe("configMapsEqual", () => {
  it.each<[string, ConfigMaps, ConfigMaps, boolean]>([
    ["identical", widgets, structuredClone(widgets), true],
    ["both empty", {}, {}, true],
    ["keys reordered", { m: { a: 1, b: 2 }, n: {} }, { n: {}, m: { b: 2, a: 1 } }, true],
    ["value differs", { m: { a: 1 } }, { m: { a: 2 } }, false],
    ["value type differs", { m: { a: 10 } }, { m: { a: "10" } }, false],
    ["boolean vs string", { m: { a: true } }, { m: { a: "true" } }, false],
    ["extra key on the right", { m: { a: 1 } }, { m: { a: 1, b: 2 } }, false],
    ["extra key on the left", { m: { a: 1, b: 2 } }, { m: { a: 1 } }, false],
    ["same key count, different keys", { m: { a: 1 } }, { m: { b: 1 } }, false],
    ["extra map", { m: {} }, { m: {}, n: {} }, false],
    ["empty map vs no map", { m: {} }, {}, false],
    ["different map names", { m: { a: 1 } }, { n: { a: 1 } }, false],
  ])("%s -> %s", (_label, a, b, equal) => {
    expect(configMapsEqual(a, b)).toBe(equal);
    expect(configMapsEqual(b, a)).toBe(equal);
  });

  it("does not mistake an inherited name for an own one", () => {
    expect(configMapsEqual({ toString: {} }, { valueOf: {} })).toBe(false);
    expect(configMapsEqual({ m: { constructor: "x" } }, { m: { toString: "x" } })).toBe(false);
  });
});

describe("NUL characters", () => {
  it("are refused in keys and string values, naming the key", () => {
    expect(checkConfigMaps({ m: { "a\u0000b": 1 } }, ["c"])).toEqual([
      expect.objectContaining({
        code: "INVALID_INPUT",
        field: ["c", "m", "a\u0000b"],
        message: expect.stringContaining("NUL"),
      }),
    ]);
    expect(checkConfigMaps({ m: { k: "x\u0000" } }, ["c"])).toEqual([
      expect.objectContaining({ field: ["c", "m", "k"], message: expect.stringContaining("NUL") }),
    ]);
  });
});

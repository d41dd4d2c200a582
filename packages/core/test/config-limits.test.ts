import { describe, expect, it } from "vitest";
import { CONFIG_LIMITS, numberProblem } from "../src/config-limits.ts";
import { checkConfigMaps } from "../src/config-maps.ts";

const field = ["input", "config"];
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe("config map limits", () => {
  it("accept a set at every limit", () => {
    const atLimit = {
      big: { value: "v".repeat(CONFIG_LIMITS.maxValueLength) },
      many: keys(CONFIG_LIMITS.maxKeysPerMap),
    };
    expect(checkConfigMaps(atLimit, field)).toEqual([]);
    const maps = Object.fromEntries(Array.from({ length: CONFIG_LIMITS.maxMaps }, (_, i) => [`m${i}`, {}]));
    expect(checkConfigMaps(maps, field)).toEqual([]);
  });

  it.each([
    [
      "a value one character too long",
      { m: { k: "v".repeat(CONFIG_LIMITS.maxValueLength + 1) } },
      [...field, "m", "k"],
      `${CONFIG_LIMITS.maxValueLength + 1} characters long; the maximum is ${CONFIG_LIMITS.maxValueLength}`,
    ],
    [
      "a map with one key too many",
      { m: keys(CONFIG_LIMITS.maxKeysPerMap + 1) },
      [...field, "m"],
      `${CONFIG_LIMITS.maxKeysPerMap + 1} keys; the maximum is ${CONFIG_LIMITS.maxKeysPerMap}`,
    ],
    [
      "one map too many",
      Object.fromEntries(Array.from({ length: CONFIG_LIMITS.maxMaps + 1 }, (_, i) => [`m${i}`, {}])),
      field,
      `${CONFIG_LIMITS.maxMaps + 1} config maps given; the maximum is ${CONFIG_LIMITS.maxMaps}`,
    ],
    [
      "a set too large in all",
      Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`m${i}`, { k: "v".repeat(CONFIG_LIMITS.maxValueLength) }]),
      ),
      field,
      `; the maximum is ${CONFIG_LIMITS.maxTotalBytes}`,
    ],
  ])("refuse %s, naming the field and the limit", (_label, maps, path, message) => {
    expect(checkConfigMaps(maps, field)).toEqual([
      { code: "INVALID_INPUT", field: path, message: expect.stringContaining(message) },
    ]);
  });

  it("refuse a map of 100,000 keys in one error, without walking every key", () => {
    const errors = checkConfigMaps({ m: keys(100_000) }, field);
    expect(errors).toHaveLength(1);
  });
});

describe("numbers", () => {
  it.each([2 ** 53, -(2 ** 53), 2 ** 64, 1e300])("refuses %d, which JavaScript cannot hold exactly", (n) => {
    expect(numberProblem(n)).toContain("give it as a string");
    expect(checkConfigMaps({ m: { k: n } }, field)).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: [...field, "m", "k"] }),
    ]);
  });

  it.each([0, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 0.5, 1e-300])("keeps %d", (n) => {
    expect(numberProblem(n)).toBeUndefined();
    expect(checkConfigMaps({ m: { k: n } }, field)).toEqual([]);
  });
});

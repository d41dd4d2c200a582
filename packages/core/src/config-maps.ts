import { CONFIG_LIMITS, numberProblem } from "./config-limits.ts";
import { ErrorCode, userError } from "./errors.ts";
import type { UserError } from "./errors.ts";
import { MAX_NAME_LENGTH } from "./names.ts";
import { describeValue, isPlainObject } from "./plain-object.ts";
import { quote } from "./quote.ts";
import { textProblem } from "./text.ts";

export type ConfigValue = string | number | boolean;
/** Key-value pairs for one stream platform or enterprise, e.g. "apache.kafka" or "acme.kafka". */
export type ConfigMap = Record<string, ConfigValue>;
/** Config maps by map name, as given to CREATE STREAM ... WITH CONFIG. */
export type ConfigMaps = Record<string, ConfigMap>;

const CONFIG_MAP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 249;
// Stored maps pass through code that assigns by key; this key would replace the prototype there.
const FORBIDDEN_KEY = "__proto__";

/** Checks the shape of user-supplied config maps; what each key means is the provider's business. */
export function checkConfigMaps(value: unknown, field: string[]): UserError[] {
  if (!isPlainObject(value)) {
    return [invalid(field, `config maps must be an object of config maps, got ${describeValue(value)}`)];
  }
  const sizeProblem = checkSetSize(value);
  if (sizeProblem) return [invalid(field, sizeProblem)];
  const errors: UserError[] = [];
  for (const [mapName, map] of Object.entries(value)) {
    const mapField = [...field, mapName];
    const nameProblem = checkMapName(mapName);
    if (nameProblem) errors.push(invalid(mapField, nameProblem));
    if (!isPlainObject(map)) {
      errors.push(
        invalid(
          mapField,
          `config map ${quote(mapName)} must be an object of key-value pairs, got ${describeValue(map)}`,
        ),
      );
      continue;
    }
    const keys = Object.keys(map).length;
    if (keys > CONFIG_LIMITS.maxKeysPerMap) {
      errors.push(
        invalid(
          mapField,
          `config map ${quote(mapName)} has ${keys} keys; the maximum is ${CONFIG_LIMITS.maxKeysPerMap}`,
        ),
      );
      continue;
    }
    for (const [key, entry] of Object.entries(map)) {
      const problem = checkKey(key) ?? checkValue(key, entry);
      if (problem) errors.push(invalid([...mapField, key], `config map ${quote(mapName)} ${problem}`));
    }
  }
  return errors;
}

function checkMapName(name: string): string | undefined {
  if (name.length === 0) return "config map name must not be empty";
  if (name.length > MAX_NAME_LENGTH) {
    return `config map name is ${name.length} characters long; the maximum is ${MAX_NAME_LENGTH}`;
  }
  if (!CONFIG_MAP_NAME.test(name)) {
    return (
      `config map name ${quote(name)} must start with a letter or digit ` +
      `and contain only letters, digits, ".", "_" and "-"`
    );
  }
  return undefined;
}

function checkKey(key: string): string | undefined {
  if (key.length === 0) return "has an empty key; keys must not be empty";
  if (key.length > MAX_KEY_LENGTH) {
    return `has a key ${key.length} characters long; the maximum is ${MAX_KEY_LENGTH}`;
  }
  if (key === FORBIDDEN_KEY) return `must not have the key "${FORBIDDEN_KEY}"`;
  const problem = textProblem(key);
  return problem && `has a key ${quote(key)} that ${problem}`;
}

function checkValue(key: string, value: unknown): string | undefined {
  if (typeof value === "boolean") return undefined;
  if (typeof value === "number" && Number.isFinite(value)) {
    const problem = numberProblem(value);
    return problem && `key ${quote(key)} has a number that ${problem}`;
  }
  if (typeof value !== "string") {
    return `key ${quote(key)} must be a string, a finite number or a boolean, got ${describeValue(value)}`;
  }
  if (value.length > CONFIG_LIMITS.maxValueLength) {
    return `key ${quote(key)} has a value ${value.length} characters long; the maximum is ${CONFIG_LIMITS.maxValueLength}`;
  }
  const problem = textProblem(value);
  return problem && `key ${quote(key)} has a value that ${problem}`;
}

/** Whole-set limits, checked first so a huge input is refused before it is walked key by key. */
function checkSetSize(maps: Record<string, unknown>): string | undefined {
  const count = Object.keys(maps).length;
  if (count > CONFIG_LIMITS.maxMaps) {
    return `${count} config maps given; the maximum is ${CONFIG_LIMITS.maxMaps}`;
  }
  const bytes = textBytes(maps);
  if (bytes > CONFIG_LIMITS.maxTotalBytes) {
    return `config maps are ${bytes} bytes of names, keys and values; the maximum is ${CONFIG_LIMITS.maxTotalBytes}`;
  }
  return undefined;
}

function textBytes(maps: Record<string, unknown>): number {
  const encoder = new TextEncoder();
  let bytes = 0;
  for (const [name, map] of Object.entries(maps)) {
    bytes += encoder.encode(name).length;
    if (!isPlainObject(map)) continue;
    for (const [key, value] of Object.entries(map)) {
      bytes += encoder.encode(key).length + (typeof value === "string" ? encoder.encode(value).length : 8);
    }
  }
  return bytes;
}

function invalid(field: string[], message: string): UserError {
  return userError(ErrorCode.INVALID_INPUT, field, message);
}

/**
 * Applies binding-level maps over stream-level ones: within a map an override
 * key wins, other keys of either side are kept. Order is base first, then
 * additions, so stored and displayed config does not reshuffle on every update.
 */
export function mergeConfigMaps(base: ConfigMaps, override: ConfigMaps): ConfigMaps {
  const names = unionKeys(base, override);
  return Object.fromEntries(
    names.map((name) => {
      const baseMap = own(base, name) ?? {};
      const overrideMap = own(override, name) ?? {};
      const keys = unionKeys(baseMap, overrideMap);
      const merged = keys.map((key) => [key, own(overrideMap, key) ?? own(baseMap, key)] as const);
      return [name, Object.fromEntries(merged) as ConfigMap];
    }),
  );
}

function unionKeys(first: object, second: object): string[] {
  return [...new Set([...Object.keys(first), ...Object.keys(second)])];
}

// Own properties only, so a map name like "constructor" never reads Object.prototype.
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Deep equality that ignores key order, so a reordered but identical update is not a change. */
export function configMapsEqual(a: ConfigMaps, b: ConfigMaps): boolean {
  return sameEntries(a, b, (mapA, mapB) => sameEntries(mapA, mapB, (valueA, valueB) => valueA === valueB));
}

function sameEntries<T>(a: Record<string, T>, b: Record<string, T>, same: (x: T, y: T) => boolean): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    if (!Object.hasOwn(b, key)) return false;
    return same(a[key] as T, b[key] as T);
  });
}

import type { ConfigMap, ConfigValue } from "@stream-registry/core";
import type { ConfigIssue } from "@stream-registry/provider-api";

/** A parsed config value, or why it cannot be parsed (the message names the rule, not the key). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * One key of a provider-owned config map: what it means, its type and range for docs, and how to
 * read it. The tables built from these are the single source of validation, parsing and docs.
 */
export interface KeySpec<T> {
  description: string;
  /** The type and range as users read it, e.g. "integer ≥ 1". */
  type: string;
  /** The default as users read it; absent when the key has no default. */
  default?: string;
  parse(value: ConfigValue): Parsed<T>;
}

export type KeySpecs = Record<string, KeySpec<unknown>>;

/** The typed values of a map of `S`'s keys; a key that is absent or invalid is undefined. */
export type ParsedValues<S extends KeySpecs> = {
  [K in keyof S]?: S[K] extends KeySpec<infer T> ? T : never;
};

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (reason: string): Parsed<never> => ({ ok: false, reason });

export function show(value: ConfigValue): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

const INTEGER = /^-?\d+$/;

/** Integers, given as numbers or as strings of digits (DDL users write both). */
export function integer(options: { min: number; max?: number; description: string; default?: string }) {
  const { min, max = Number.MAX_SAFE_INTEGER } = options;
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `${min}..${max}`;
  return {
    description: options.description,
    type: `integer ${range}`,
    default: options.default,
    parse(value: ConfigValue): Parsed<number> {
      const number = typeof value === "string" && INTEGER.test(value.trim()) ? Number(value) : value;
      if (typeof number !== "number" || !Number.isSafeInteger(number)) {
        return fail(`must be an integer, got ${show(value)}`);
      }
      if (number < min) return fail(`must be at least ${min}, got ${number}`);
      if (number > max) return fail(`must be at most ${max}, got ${number}`);
      return ok(number);
    },
  } satisfies KeySpec<number>;
}

/** Booleans as true/false or the strings "true"/"false" (any case, as Kafka reads them). */
export function boolean(options: { description: string; default?: string }) {
  return {
    description: options.description,
    type: `boolean (true/false or "true"/"false")`,
    default: options.default,
    parse(value: ConfigValue): Parsed<boolean> {
      if (typeof value === "boolean") return ok(value);
      if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) {
        return ok(value.trim().toLowerCase() === "true");
      }
      return fail(`must be true or false, got ${show(value)}`);
    },
  } satisfies KeySpec<boolean>;
}

/** One of a fixed set of strings; case-sensitive, as Kafka's own validators are. */
export function oneOf<const V extends string>(
  values: readonly V[],
  options: { description: string; default?: string; aliases?: Record<string, V> },
) {
  const shown = values.map((v) => JSON.stringify(v)).join(", ");
  return {
    description: options.description,
    type: `one of ${shown}`,
    default: options.default,
    parse(value: ConfigValue): Parsed<V> {
      const text = String(value);
      const alias =
        options.aliases && Object.hasOwn(options.aliases, text) ? options.aliases[text] : undefined;
      if (alias !== undefined) return ok(alias);
      if ((values as readonly string[]).includes(text)) return ok(text as V);
      return fail(`must be one of ${shown}, got ${show(value)}`);
    },
  } satisfies KeySpec<V>;
}

/** A string; `check` may refuse it with a reason. */
export function text(options: {
  description: string;
  type?: string;
  default?: string;
  check?: (value: string) => string | undefined;
}) {
  return {
    description: options.description,
    type: options.type ?? "non-empty string",
    default: options.default,
    parse(value: ConfigValue): Parsed<string> {
      if (typeof value !== "string") return fail(`must be a string, got ${show(value)}`);
      if (value.trim().length === 0) return fail("must not be empty");
      const problem = options.check?.(value);
      return problem === undefined ? ok(value) : fail(problem);
    },
  } satisfies KeySpec<string>;
}

/**
 * Parses every key of `map` against `specs`. An unknown key is an issue that names it and lists the
 * known keys, so a typo ("partition") is caught rather than silently ignored.
 */
export function parseKeys<S extends KeySpecs>(
  map: ConfigMap,
  specs: S,
  where: string,
): { values: ParsedValues<S>; issues: ConfigIssue[] } {
  const values: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  for (const [key, raw] of Object.entries(map)) {
    const spec = Object.hasOwn(specs, key) ? specs[key] : undefined;
    if (!spec) {
      issues.push({
        field: [key],
        message: `unknown key ${JSON.stringify(key)} in ${where}; known keys: ${Object.keys(specs).join(", ")}`,
      });
      continue;
    }
    const parsed = spec.parse(raw);
    if (parsed.ok) values[key] = parsed.value;
    else issues.push({ field: [key], message: `${JSON.stringify(key)} ${parsed.reason}` });
  }
  return { values: values as ParsedValues<S>, issues };
}

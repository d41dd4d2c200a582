import type { JsonValue } from "./ast.ts";

/** Canonical JSON for config blocks and inline schemas: 2-space indent, `{}` / `[]` when empty. */
export function printJson(value: JsonValue, indent = ""): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return printNumber(value);
  if (typeof value === "string") return quote(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => inner + printJson(item, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const lines = entries.map(([key, item]) => `${inner}${quote(key)}: ${printJson(item, inner)}`);
  return `{\n${lines.join(",\n")}\n${indent}}`;
}

/** A double-quoted string with JSON escapes, which the lexer reads back exactly. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

function printNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot print ${value}: config numbers must be finite`);
  // JSON.stringify(-0) is "0"; keep the sign so print -> parse gives back the same value.
  return Object.is(value, -0) ? "-0" : String(value);
}

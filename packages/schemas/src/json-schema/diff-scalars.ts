import type { DiffContext } from "./diff-context.ts";
import type { NodeOf } from "./model.ts";
import { stableStringify } from "../stable-json.ts";

/**
 * A numeric bound that widens when it goes one way (`looser`: "up" for maxima, "down" for minima):
 * ADDED, REMOVED, INCREASED or DECREASED under `name`'s upper-snake form.
 */
export function compareBound(
  ctx: DiffContext,
  attribute: string,
  original: number | undefined,
  update: number | undefined,
): void {
  if (original === update) return;
  const name = attribute.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  if (original === undefined) return ctx.add(`${name}_ADDED`, attribute);
  if (update === undefined) return ctx.add(`${name}_REMOVED`, attribute);
  ctx.add(`${name}_${original < update ? "INCREASED" : "DECREASED"}`, attribute);
}

export function compareStrings(ctx: DiffContext, o: NodeOf<"string">, u: NodeOf<"string">): void {
  compareBound(ctx, "maxLength", o.maxLength, u.maxLength);
  compareBound(ctx, "minLength", o.minLength, u.minLength);
  if (o.pattern === u.pattern) return;
  if (o.pattern === undefined) ctx.add("PATTERN_ADDED", "pattern");
  else if (u.pattern === undefined) ctx.add("PATTERN_REMOVED", "pattern");
  else ctx.add("PATTERN_CHANGED", "pattern");
}

export function compareNumbers(ctx: DiffContext, o: NodeOf<"number">, u: NodeOf<"number">): void {
  compareBound(ctx, "maximum", o.maximum, u.maximum);
  compareBound(ctx, "minimum", o.minimum, u.minimum);
  compareBound(ctx, "exclusiveMaximum", o.exclusiveMaximum, u.exclusiveMaximum);
  compareBound(ctx, "exclusiveMinimum", o.exclusiveMinimum, u.exclusiveMinimum);
  compareMultipleOf(ctx, o.multipleOf, u.multipleOf);
  if (o.integer !== u.integer) ctx.add(o.integer ? "TYPE_EXTENDED" : "TYPE_NARROWED");
}

/** A new multipleOf that divides the old one accepts every old value (REDUCED); a multiple of it does not. */
function compareMultipleOf(ctx: DiffContext, original: number | undefined, update: number | undefined): void {
  if (original === update) return;
  if (original === undefined) return ctx.add("MULTIPLE_OF_ADDED", "multipleOf");
  if (update === undefined) return ctx.add("MULTIPLE_OF_REMOVED", "multipleOf");
  if (isWholeMultiple(update, original)) return ctx.add("MULTIPLE_OF_EXPANDED", "multipleOf");
  if (isWholeMultiple(original, update)) return ctx.add("MULTIPLE_OF_REDUCED", "multipleOf");
  ctx.add("MULTIPLE_OF_CHANGED", "multipleOf");
}

function isWholeMultiple(value: number, of: number): boolean {
  const ratio = value / of;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

export function compareEnums(ctx: DiffContext, o: NodeOf<"enum">, u: NodeOf<"enum">): void {
  const before = new Set(o.values.map(stableStringify));
  const after = new Set(u.values.map(stableStringify));
  const kept = [...before].every((value) => after.has(value));
  const noneNew = [...after].every((value) => before.has(value));
  if (kept && noneNew) return;
  if (kept) ctx.add("ENUM_ARRAY_EXTENDED", "enum");
  else if (noneNew) ctx.add("ENUM_ARRAY_NARROWED", "enum");
  else ctx.add("ENUM_ARRAY_CHANGED", "enum");
}

export function compareConsts(ctx: DiffContext, o: NodeOf<"const">, u: NodeOf<"const">): void {
  if (stableStringify(o.value) !== stableStringify(u.value)) ctx.add("ENUM_ARRAY_CHANGED", "const");
}

import { compareArrays } from "./diff-array.ts";
import { DiffContext } from "./diff-context.ts";
import { compareObjects } from "./diff-object.ts";
import { compareConsts, compareEnums, compareNumbers, compareStrings } from "./diff-scalars.ts";
import type { JsonDifference } from "./differences.ts";
import type { JsonNode, NodeOf } from "./model.ts";
import { stableStringify } from "../stable-json.ts";

/**
 * Every difference between `original` (the schema data was written with) and `update` (the one
 * that now validates it), as Confluent's JSON Schema checker finds them.
 */
export function jsonSchemaDifferences(original: JsonNode, update: JsonNode): JsonDifference[] {
  const ctx = DiffContext.root();
  compareSchemas(ctx, original, update);
  return ctx.differences;
}

export function compareSchemas(ctx: DiffContext, original?: JsonNode, update?: JsonNode): void {
  if (!original && !update) return;
  if (!original) return ctx.add("SCHEMA_ADDED");
  if (!update) return ctx.add("SCHEMA_REMOVED");
  const o = dereference(original);
  const u = dereference(update);
  ctx.memoized(o, u, (pairCtx) => compareNodes(pairCtx, o, u));
}

/** Whether `update` accepts what `original` did, tried on the side. */
export function compatibleOnTheSide(ctx: DiffContext, original: JsonNode, update: JsonNode): DiffContext {
  const sub = ctx.sub();
  compareSchemas(sub, original, update);
  return sub;
}

function compareNodes(ctx: DiffContext, o: JsonNode, u: JsonNode): void {
  if (o.kind !== "combined" && u.kind === "combined") {
    if (u.subschemas.length === 1) {
      const sub = compatibleOnTheSide(ctx, o, u.subschemas[0]!);
      if (sub.isCompatible()) return ctx.addAll(sub.differences);
    } else if (u.criterion !== "allOf") {
      // A schema that became one of the alternatives of a union still accepts what it did.
      for (const subschema of u.subschemas) {
        const sub = compatibleOnTheSide(ctx, o, subschema);
        if (sub.isCompatible()) {
          ctx.addAll(sub.differences);
          return ctx.add("SUM_TYPE_EXTENDED");
        }
      }
    }
  } else if (o.kind === "combined" && u.kind !== "combined") {
    if (o.subschemas.length === 1) {
      const sub = compatibleOnTheSide(ctx, o.subschemas[0]!, u);
      if (sub.isCompatible()) return ctx.addAll(sub.differences);
    } else if (o.criterion === "allOf") {
      // What passed all of the schemas passed each: the update may keep just one of them.
      for (const subschema of o.subschemas) {
        const sub = compatibleOnTheSide(ctx, subschema, u);
        if (sub.isCompatible()) {
          ctx.addAll(sub.differences);
          return ctx.add("PRODUCT_TYPE_NARROWED");
        }
      }
    }
  }
  if (o.kind !== u.kind) {
    // Nothing was valid before, or anything is valid now.
    if (o.kind === "false" || u.kind === "empty") return;
    return ctx.add("TYPE_CHANGED");
  }
  if (o.id !== u.id) ctx.add("ID_CHANGED");
  if (o.title !== u.title) ctx.add("TITLE_CHANGED");
  if (o.description !== u.description) ctx.add("DESCRIPTION_CHANGED");
  if (stableStringify(o.defaultValue) !== stableStringify(u.defaultValue)) ctx.add("DEFAULT_CHANGED");
  compareKinds(ctx, o, u);
}

type Comparator<K extends JsonNode["kind"]> = (ctx: DiffContext, o: NodeOf<K>, u: NodeOf<K>) => void;

/** What a pair of the same kind compares beyond the annotations. */
const COMPARATORS: { [K in JsonNode["kind"]]?: Comparator<K> } = {
  string: compareStrings,
  number: compareNumbers,
  enum: compareEnums,
  const: compareConsts,
  object: compareObjects,
  array: compareArrays,
  combined: (ctx, o, u) => compareCombined(ctx, o, u),
  not: (ctx, o, u) => compareNot(ctx, o, u),
};

function compareKinds(ctx: DiffContext, o: JsonNode, u: JsonNode): void {
  const compare = COMPARATORS[o.kind] as Comparator<typeof o.kind> | undefined;
  compare?.(ctx, o as never, u as never);
}

/** `not` reverses the sides: the excluded set may shrink, not grow. */
function compareNot(ctx: DiffContext, o: NodeOf<"not">, u: NodeOf<"not">): void {
  ctx.within("not", () => {
    const sub = compatibleOnTheSide(ctx, u.schema, o.schema);
    ctx.add(sub.isCompatible() ? "NOT_TYPE_NARROWED" : "NOT_TYPE_EXTENDED");
  });
}

function compareCombined(ctx: DiffContext, o: NodeOf<"combined">, u: NodeOf<"combined">): void {
  const change = criterionChange(o, u);
  if (change) ctx.add(change);
  if (change === "COMBINED_TYPE_CHANGED") return;
  const originals = distinct(o.subschemas);
  const updates = distinct(u.subschemas);
  if (originals.length < updates.length) {
    ctx.add(u.criterion === "allOf" ? "PRODUCT_TYPE_EXTENDED" : "SUM_TYPE_EXTENDED");
  } else if (originals.length > updates.length) {
    ctx.add(u.criterion === "allOf" ? "PRODUCT_TYPE_NARROWED" : "SUM_TYPE_NARROWED");
  }
  // Which original subschema each update subschema can stand for: a maximum matching must cover
  // the smaller side.
  const edges = originals.map((original, index) => {
    const compatible = new Map<number, DiffContext>();
    ctx.within(`${o.criterion}/${index}`, () => {
      updates.forEach((update, j) => {
        const sub = compatibleOnTheSide(ctx, original, update);
        if (sub.isCompatible()) compatible.set(j, sub);
      });
    });
    return compatible;
  });
  const matching = maximumMatching(edges, updates.length);
  matching.forEach((j, i) => ctx.addAll(edges[i]!.get(j)!.differences));
  if (matching.size < Math.min(originals.length, updates.length)) ctx.add("COMBINED_TYPE_SUBSCHEMAS_CHANGED");
}

function criterionChange(o: NodeOf<"combined">, u: NodeOf<"combined">): string | undefined {
  if (o.criterion === u.criterion) return undefined;
  if (u.criterion === "anyOf") return "COMBINED_TYPE_EXTENDED";
  if (u.criterion === "oneOf")
    return o.subschemas.length === 1 ? "COMBINED_TYPE_EXTENDED" : "COMBINED_TYPE_CHANGED";
  return o.subschemas.length === 1 && u.subschemas.length === 1
    ? "COMBINED_TYPE_EXTENDED"
    : "COMBINED_TYPE_CHANGED";
}

function distinct(nodes: readonly JsonNode[]): JsonNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => {
    const key = stableStringify(node.raw);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Kuhn's augmenting paths: original index -> update index. */
function maximumMatching(edges: readonly Map<number, unknown>[], updateCount: number): Map<number, number> {
  const matchedBy = new Array<number>(updateCount).fill(-1);
  const augment = (i: number, visited: Set<number>): boolean => {
    for (const j of edges[i]!.keys()) {
      if (visited.has(j)) continue;
      visited.add(j);
      if (matchedBy[j] === -1 || augment(matchedBy[j]!, visited)) {
        matchedBy[j] = i;
        return true;
      }
    }
    return false;
  };
  edges.forEach((_, i) => augment(i, new Set()));
  const matching = new Map<number, number>();
  matchedBy.forEach((i, j) => {
    if (i >= 0) matching.set(i, j);
  });
  return matching;
}

function dereference(node: JsonNode): JsonNode {
  let current = node;
  for (let hops = 0; current.kind === "ref" && hops < 64; hops++) {
    const target = current.target();
    if (!target) return { raw: {}, hasDefault: false, kind: "empty" };
    current = target;
  }
  return current;
}

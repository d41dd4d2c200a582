import type { DiffContext } from "./diff-context.ts";
import {
  addedToContentModel,
  compareAdditional,
  removedFromContentModel,
  type ContentModel,
} from "./content-model.ts";
import { compareSchemas } from "./diff.ts";
import { compareBound } from "./diff-scalars.ts";
import type { JsonNode, NodeOf } from "./model.ts";

type ArrayNode = NodeOf<"array">;

export function compareArrays(ctx: DiffContext, o: ArrayNode, u: ArrayNode): void {
  ctx.within("items", () => compareSchemas(ctx, o.allItems, u.allItems));
  compareTuples(ctx, o, u);
  ctx.within("additionalItems", () => compareAdditional(ctx, "ITEMS", o.additionalItems, u.additionalItems));
  compareUnevaluatedItems(ctx, o.unevaluatedItems, u.unevaluatedItems);
  compareBound(ctx, "maxItems", o.maxItems, u.maxItems);
  compareBound(ctx, "minItems", o.minItems, u.minItems);
  if (o.uniqueItems !== u.uniqueItems) {
    ctx.add(o.uniqueItems ? "UNIQUE_ITEMS_REMOVED" : "UNIQUE_ITEMS_ADDED", "uniqueItems");
  }
  compareBound(ctx, "maxContains", o.maxContains, u.maxContains);
  compareBound(ctx, "minContains", o.minContains, u.minContains);
}

function compareTuples(ctx: DiffContext, o: ArrayNode, u: ArrayNode): void {
  const length = Math.max(o.itemSchemas.length, u.itemSchemas.length);
  for (let index = 0; index < length; index++) {
    const before = o.itemSchemas[index];
    const after = u.itemSchemas[index];
    ctx.within(`items/${index}`, () => {
      if (before && after) compareSchemas(ctx, before, after);
      else if (before) itemRemoved(ctx, before, u);
      else if (after) itemAdded(ctx, after, o);
    });
  }
}

function itemRemoved(ctx: DiffContext, before: JsonNode, u: ArrayNode): void {
  removedFromContentModel(ctx, "ITEM", before, contentModel(u));
}

/** An item added past a closed tuple: old data never had it. */
function itemAdded(ctx: DiffContext, after: JsonNode, o: ArrayNode): void {
  if (!addedToContentModel(ctx, "ITEM", after, contentModel(o)))
    ctx.add("ITEM_ADDED_TO_CLOSED_CONTENT_MODEL");
}

function compareUnevaluatedItems(ctx: DiffContext, before?: JsonNode, after?: JsonNode): void {
  if (!before && !after) return;
  ctx.within("unevaluatedItems", () => {
    const wasFalse = before?.kind === "false";
    const isFalse = after?.kind === "false";
    if (!before) return ctx.add(isFalse ? "UNEVALUATED_ITEMS_REMOVED" : "UNEVALUATED_ITEMS_NARROWED");
    if (!after) return ctx.add(wasFalse ? "UNEVALUATED_ITEMS_ADDED" : "UNEVALUATED_ITEMS_EXTENDED");
    if (wasFalse !== isFalse)
      return ctx.add(wasFalse ? "UNEVALUATED_ITEMS_ADDED" : "UNEVALUATED_ITEMS_REMOVED");
    const wasEmpty = before.kind === "empty";
    const isEmpty = after.kind === "empty";
    if (wasEmpty !== isEmpty)
      return ctx.add(wasEmpty ? "UNEVALUATED_ITEMS_NARROWED" : "UNEVALUATED_ITEMS_EXTENDED");
    compareSchemas(ctx, before, after);
  });
}

/** Open: items past the tuple may be anything; partially open: what additionalItems (or unevaluatedItems) allow. */
function contentModel(node: ArrayNode): ContentModel {
  const unevaluated = node.unevaluatedItems;
  const open =
    node.additionalItems.permits &&
    !node.additionalItems.schema &&
    (!unevaluated || unevaluated.kind === "empty");
  const covering =
    node.additionalItems.schema ??
    (node.additionalItems.permits && unevaluated && unevaluated.kind !== "false" ? unevaluated : undefined);
  return { open, covering };
}

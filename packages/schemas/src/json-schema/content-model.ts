import type { DiffContext } from "./diff-context.ts";
import { compareSchemas, compatibleOnTheSide } from "./diff.ts";
import type { Additional, JsonNode } from "./model.ts";

/**
 * What an object (for properties) or a tuple (for items) lets through beyond what it lists: anything
 * (open), what one schema allows (partially open: additionalProperties, patternProperties,
 * additionalItems), or nothing (closed).
 */
export interface ContentModel {
  readonly open: boolean;
  /** The schema an unlisted property or item is checked against, when partially open. */
  readonly covering: JsonNode | undefined;
}

type Member = "PROPERTY" | "ITEM";

/** A listed member the update no longer lists: data holding it must still pass the update's model. */
export function removedFromContentModel(
  ctx: DiffContext,
  member: Member,
  before: JsonNode,
  update: ContentModel,
): void {
  if (update.open) return ctx.add(`${member}_REMOVED_FROM_OPEN_CONTENT_MODEL`);
  if (update.covering) return covered(ctx, member, "REMOVED", before, update.covering);
  ctx.add(
    before.kind === "false"
      ? `${member}_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL`
      : `${member}_REMOVED_FROM_CLOSED_CONTENT_MODEL`,
  );
}

/**
 * A member the update lists that the original did not: data may hold it with whatever value the
 * original's model allowed. Returns false when the original was closed (the caller decides).
 */
export function addedToContentModel(
  ctx: DiffContext,
  member: Member,
  after: JsonNode,
  original: ContentModel,
): boolean {
  if (original.open) {
    ctx.add(
      after.kind === "empty"
        ? `${member}_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL`
        : `${member}_ADDED_TO_OPEN_CONTENT_MODEL`,
    );
    return true;
  }
  if (original.covering) covered(ctx, member, "ADDED", original.covering, after);
  return original.covering !== undefined;
}

function covered(
  ctx: DiffContext,
  member: Member,
  change: string,
  original: JsonNode,
  update: JsonNode,
): void {
  const sub = compatibleOnTheSide(ctx, original, update);
  ctx.addAll(sub.differences);
  const coverage = sub.isCompatible() ? "IS_COVERED" : "NOT_COVERED";
  ctx.add(`${member}_${change}_${coverage}_BY_PARTIALLY_OPEN_CONTENT_MODEL`);
}

export function compareAdditional(
  ctx: DiffContext,
  what: "PROPERTIES" | "ITEMS",
  o: Additional,
  u: Additional,
): void {
  if (o.permits !== u.permits) return ctx.add(`ADDITIONAL_${what}_${u.permits ? "ADDED" : "REMOVED"}`);
  if (!o.schema && u.schema) return ctx.add(`ADDITIONAL_${what}_NARROWED`);
  if (o.schema && !u.schema) return ctx.add(`ADDITIONAL_${what}_EXTENDED`);
  compareSchemas(ctx, o.schema, u.schema);
}

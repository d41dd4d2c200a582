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

type ObjectNode = NodeOf<"object">;

export function compareObjects(ctx: DiffContext, o: ObjectNode, u: ObjectNode): void {
  compareRequired(ctx, o, u);
  ctx.within("properties", () => compareProperties(ctx, o, u));
  ctx.within("dependencies", () => compareDependencies(ctx, o, u));
  ctx.within("additionalProperties", () => compareAdditional(ctx, "PROPERTIES", o.additional, u.additional));
  compareBound(ctx, "maxProperties", o.maxProperties, u.maxProperties);
  compareBound(ctx, "minProperties", o.minProperties, u.minProperties);
}

/** Properties in both: becoming required breaks old data unless the property has a default. */
function compareRequired(ctx: DiffContext, o: ObjectNode, u: ObjectNode): void {
  ctx.within("required", () => {
    for (const [name] of o.properties) {
      const property = u.properties.get(name);
      if (!property) continue;
      const before = o.required.has(name);
      const after = u.required.has(name);
      if (before && !after) ctx.add("REQUIRED_ATTRIBUTE_REMOVED", name);
      if (!before && after) {
        ctx.add(
          property.hasDefault ? "REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED" : "REQUIRED_ATTRIBUTE_ADDED",
          name,
        );
      }
    }
  });
}

function compareProperties(ctx: DiffContext, o: ObjectNode, u: ObjectNode): void {
  ctx.eachKey(o.properties, u.properties, (before, after, name) => {
    if (before && after) return compareSchemas(ctx, before, after);
    if (before) return propertyRemoved(ctx, before, u, name);
    if (after) propertyAdded(ctx, after, o, u, name);
  });
}

function propertyRemoved(ctx: DiffContext, before: JsonNode, u: ObjectNode, name: string): void {
  removedFromContentModel(ctx, "PROPERTY", before, contentModel(u, name));
}

/** Besides the content model, a required property added breaks old data unless it has a default. */
function propertyAdded(ctx: DiffContext, after: JsonNode, o: ObjectNode, u: ObjectNode, name: string): void {
  const model = contentModel(o, name);
  addedToContentModel(ctx, "PROPERTY", after, model);
  if (model.open) return;
  if (!u.required.has(name)) return ctx.add("OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL");
  ctx.add(
    after.hasDefault
      ? "REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL"
      : "REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL",
  );
}

function compareDependencies(ctx: DiffContext, o: ObjectNode, u: ObjectNode): void {
  for (const name of new Set([...o.propertyDependencies.keys(), ...u.propertyDependencies.keys()])) {
    const before = o.propertyDependencies.get(name);
    const after = u.propertyDependencies.get(name);
    if (!after) ctx.add("DEPENDENCY_ARRAY_REMOVED", name);
    else if (!before) ctx.add("DEPENDENCY_ARRAY_ADDED", name);
    else {
      const change = dependencyChange(before, after);
      if (change) ctx.add(change, name);
    }
  }
  for (const name of new Set([...o.schemaDependencies.keys(), ...u.schemaDependencies.keys()])) {
    const before = o.schemaDependencies.get(name);
    const after = u.schemaDependencies.get(name);
    if (!after) ctx.add("DEPENDENCY_SCHEMA_REMOVED", name);
    else if (!before) ctx.add("DEPENDENCY_SCHEMA_ADDED", name);
    else ctx.within(name, () => compareSchemas(ctx, before, after));
  }
}

function dependencyChange(before: readonly string[], after: readonly string[]): string | undefined {
  const kept = before.every((name) => after.includes(name));
  const noneNew = after.every((name) => before.includes(name));
  if (kept && noneNew) return undefined;
  if (kept) return "DEPENDENCY_ARRAY_EXTENDED";
  return noneNew ? "DEPENDENCY_ARRAY_NARROWED" : "DEPENDENCY_ARRAY_CHANGED";
}

/** Open: any additional property with any value; else a matching pattern's or additionalProperties' schema. */
function contentModel(node: ObjectNode, name: string): ContentModel {
  const open = node.patternProperties.length === 0 && !node.additional.schema && node.additional.permits;
  const pattern = node.patternProperties.find(([regex]) => matches(regex, name));
  return { open, covering: pattern ? pattern[1] : node.additional.schema };
}

function matches(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, "u").test(name);
  } catch {
    return false;
  }
}

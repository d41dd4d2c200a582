import type { EntityKind } from "@stream-registry/core";

// A kind the recipe test (kind-recipe.test.ts) adds alone, step 1 of docs/architecture.md's
// "Adding a kind": its row of ENTITY_KINDS. A module of its own, importing no value, so that the
// test's mock of @stream-registry/core can load it.
export const WIDGET_KIND: EntityKind = {
  kind: "widget",
  typename: "Widget",
  list: "widgets",
  filter: "WidgetFilter",
  lookUp: "widget",
  key: "name",
  namedByStream: false,
  unindexed: [],
};

import { describe, expect, it } from "vitest";
import { UNINDEXED_FIELDS } from "@stream-registry/federation";
import { fieldsApartFromDocument } from "../src/graphql/indexed-objects.ts";
import { indexedTypes, registrySchema } from "./support/indexed-schema.ts";

// An object the discovery index answered resolves its fields from the document its owner gave,
// which holds one value of a field whatever its arguments: a field with arguments answered from
// it would ignore them without a word. Each needs a relation (indexed-objects.ts) or to be
// UNINDEXED (its owner answers it).
describe("the fields with arguments of the indexed types", () => {
  const schema = registrySchema();

  it("are found on the types the index holds", () => {
    expect(indexedTypes(schema).map((type) => type.name)).toEqual(
      expect.arrayContaining(["Stream", "Cluster", "Binding"]),
    );
  });

  it("each have a relation or an UNINDEXED entry", () => {
    const unanswered = indexedTypes(schema).flatMap((type) =>
      Object.values(type.getFields())
        .filter((field) => field.args.length > 0)
        .filter(
          (field) =>
            !fieldsApartFromDocument(type.name).has(field.name) &&
            !(UNINDEXED_FIELDS[type.name] ?? []).includes(field.name),
        )
        .map((field) => `${type.name}.${field.name}`),
    );
    expect(unanswered).toEqual([]);
  });
});

import { readFileSync } from "node:fs";
import { Kind, parse, type EnumTypeDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { ErrorCode } from "@stream-registry/core";

const schemaPath = new URL("../../../schema.graphql", import.meta.url);

function schemaEnum(name: string): EnumTypeDefinitionNode {
  const document = parse(readFileSync(schemaPath, "utf8"));
  const found = document.definitions.find(
    (d): d is EnumTypeDefinitionNode => d.kind === Kind.ENUM_TYPE_DEFINITION && d.name.value === name,
  );
  if (!found) throw new Error(`schema.graphql has no enum ${name}`);
  return found;
}

describe("the error vocabulary", () => {
  it("schema.graphql's enum ErrorCode is core's ErrorCode, in the same order", () => {
    const values = schemaEnum("ErrorCode").values?.map((v) => v.name.value);
    expect(values).toEqual(Object.values(ErrorCode));
  });

  it("describes every code in schema.graphql", () => {
    const undescribed = schemaEnum("ErrorCode")
      .values?.filter((v) => !v.description?.value.trim())
      .map((v) => v.name.value);
    expect(undescribed).toEqual([]);
  });
});

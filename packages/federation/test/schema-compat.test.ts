import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaGaps } from "../src/schema-compat.ts";

const registrySdl = readFileSync(new URL("../../../schema.graphql", import.meta.url), "utf8");

describe("schemaGaps", () => {
  it("finds none between a registry and itself, or a newer one with more", () => {
    expect(schemaGaps(registrySdl, registrySdl)).toEqual([]);
    const newer = `${registrySdl}\nextend type Query { somethingNew: String }`;
    expect(schemaGaps(registrySdl, newer)).toEqual([]);
  });

  it("names what an older child lacks: a field, a root field, an enum value", () => {
    const older = registrySdl
      .replace(/^\s*defaultBinding: Binding\n/m, "")
      .replace(
        /^\s*"A stream of this registry[^\n]*\n\s*stream\(name: String!, namespace: String\): Stream\n/m,
        "",
      )
      .replace(/^\s*"Not probed yet[^\n]*\n\s*UNKNOWN\n/m, "");
    const gaps = schemaGaps(registrySdl, older);
    expect(gaps).toEqual(
      expect.arrayContaining([
        "Stream.defaultBinding was removed.",
        "Query.stream was removed.",
        "UNKNOWN was removed from enum type HealthStatus.",
      ]),
    );
  });

  it("says so when the child's SDL is not a subgraph schema, and names at most five gaps", () => {
    expect(schemaGaps(registrySdl, "type Query {")).toEqual([
      expect.stringMatching(/^its SDL is not a valid subgraph schema: Syntax Error/),
    ]);
    const gaps = schemaGaps(registrySdl, "type Query { hello: String }");
    expect(gaps).toHaveLength(6);
    expect(gaps.at(-1)).toMatch(/^and \d+ more$/);
  });
});

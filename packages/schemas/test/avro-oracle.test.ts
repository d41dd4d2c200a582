import avro from "avsc";
import { describe, expect, it } from "vitest";
import { checkCompatibility, parseSchema } from "../src/index.ts";
import { avroRecordCases } from "./cases/avro-record-cases.ts";
import { avroTypeCases } from "./cases/avro-type-cases.ts";
import type { SchemaInput } from "./cases/table.ts";

/** avsc's own resolver: it throws when `writer` data cannot be read as `reader`. */
function avscCanRead(reader: SchemaInput, writer: SchemaInput): boolean {
  try {
    typeOf(reader).createResolver(typeOf(writer), { ignoreNamespaces: true });
    return true;
  } catch {
    return false;
  }
}

function typeOf(input: SchemaInput): avro.Type {
  const registry: Record<string, avro.Type> = {};
  const references = typeof input === "string" ? [] : input.references;
  for (const reference of references) avro.Type.forSchema(JSON.parse(reference.schema), { registry });
  return avro.Type.forSchema(JSON.parse(typeof input === "string" ? input : input.schema), { registry });
}

function parse(input: SchemaInput) {
  return typeof input === "string"
    ? parseSchema("AVRO", input)
    : parseSchema("AVRO", input.schema, input.references);
}

// The checker walks both schemas itself (for messages and paths); avsc's resolver is an independent
// implementation of the same specification, so their verdicts must agree on every pair.
describe("the Avro checker agrees with avsc's resolver", () => {
  const pairs = [...avroRecordCases, ...avroTypeCases].flatMap((c) =>
    c.previous.map((old, index) => ({
      name: `${c.name} (version ${index + 1})`,
      old,
      candidate: c.candidate,
    })),
  );

  it.each(pairs.map((pair) => [pair.name, pair] as const))("%s", (_, { old, candidate }) => {
    const previous = [{ version: 1, schema: parse(old) }];
    const backward = checkCompatibility("BACKWARD", parse(candidate), previous).compatible;
    const forward = checkCompatibility("FORWARD", parse(candidate), previous).compatible;
    expect({ backward, forward }).toEqual({
      backward: avscCanRead(candidate, old),
      forward: avscCanRead(old, candidate),
    });
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue, Span, Statement } from "../src/index.ts";
import { parse, print } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

const SPAN: Span = { line: 1, column: 1, offset: 0, endOffset: 0 };

// Any non-empty string, including quotes, backslashes, control characters and non-ASCII.
const name = fc.string({ minLength: 1, maxLength: 12, unit: "binary" });
const pathSafe = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/);
const finiteNumber = fc.oneof(
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "binary", maxLength: 8 }),
    finiteNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;
const block: fc.Arbitrary<JsonObject> = fc.dictionary(
  fc.string({ maxLength: 10 }),
  fc.dictionary(fc.string({ maxLength: 10 }), json, { maxKeys: 4 }),
  { maxKeys: 3 },
);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops properties whose value is undefined: the parser leaves absent clauses out. */
function clean<T extends object>(node: T): T {
  return Object.fromEntries(Object.entries(node).filter(([, value]) => value !== undefined)) as T;
}

const statement: fc.Arbitrary<Statement> = fc.oneof(
  fc
    .record({ stream: name, config: opt(block), producerConfig: opt(block), consumerConfig: opt(block) })
    .map((f): Statement => clean({ kind: "createStream", span: SPAN, ...f })),
  fc
    .record({ stream: name, cluster: name, config: opt(block), consumerConfig: opt(block) })
    .map((f): Statement => clean({ kind: "updateBinding", span: SPAN, ...f })),
  fc
    .record({ cluster: name, provider: opt(name), config: opt(block) })
    .map((f): Statement => clean({ kind: "declareCluster", span: SPAN, ...f })),
  fc
    .record({ stream: name, cascade: fc.boolean() })
    .map((f): Statement => ({ kind: "deleteStream", span: SPAN, ...f })),
  fc
    .record({
      typeName: name,
      stream: name,
      path: fc.oneof(pathSafe, name),
      inline: opt(fc.oneof(fc.string(), fc.array(json, { maxLength: 3 }), fc.dictionary(fc.string(), json))),
      schemaType: opt(fc.constantFrom("AVRO" as const, "JSON" as const, "PROTOBUF" as const)),
    })
    .map(({ typeName, stream, path, inline, schemaType }): Statement =>
      clean({
        kind: "registerTypeSchema",
        span: SPAN,
        typeName,
        stream,
        schema:
          inline === undefined
            ? { kind: "file", path, span: SPAN }
            : { kind: "inline", schema: inline, span: SPAN },
        schemaType,
      }),
    ),
  fc
    .record({ sink: name, type: name, config: opt(block), cluster: name })
    .map((f): Statement => clean({ kind: "createStreamSink", span: SPAN, ...f })),
  fc
    .record({
      sourceCluster: name.filter((s) => !s.includes("/")),
      stream: name.filter((s) => !s.includes("/")),
      namespace: opt(name),
      cluster: name,
    })
    .map((f): Statement => clean({ kind: "replicateBinding", span: SPAN, ...f })),
  fc
    .record({ url: name, token: name })
    .map((f): Statement => ({ kind: "declareParentRegistry", span: SPAN, ...f })),
  fc.record({ like: opt(name) }).map((f): Statement => clean({ kind: "showStreams", span: SPAN, ...f })),
  fc.record({ like: opt(name) }).map((f): Statement => clean({ kind: "showStreamSinks", span: SPAN, ...f })),
  fc
    .record({ source: name, onlyFailed: fc.boolean() })
    .map((f): Statement => ({ kind: "restartStreamSource", span: SPAN, ...f })),
  fc.record({ sink: name }).map((f): Statement => ({ kind: "pauseStreamSink", span: SPAN, ...f })),
);

describe("print / parse property", () => {
  it("parse(print(ast)) gives back the ast for generated statements", () => {
    fc.assert(
      fc.property(statement, (ast) => {
        const parsed = parse(print(ast));
        expect(parsed).toHaveLength(1);
        expect(withoutSpans(parsed[0])).toStrictEqual(withoutSpans(ast));
      }),
      { numRuns: 500 },
    );
  });
});

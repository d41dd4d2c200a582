import { describe, expect, it } from "vitest";
import { parse, type Statement } from "../src/index.ts";
import { withoutSpans } from "./support/seed-examples.ts";

function parseOne(text: string): Statement {
  const statements = parse(text);
  expect(statements).toHaveLength(1);
  return withoutSpans(statements[0]!);
}

const KAFKA = { "apache.kafka": { partitions: 3 } };

/** Each form of the grammar with the tree it must give (spans left out). */
const CASES: Array<[string, Record<string, unknown>]> = [
  ["SHOW NAMESPACE;", { kind: "showNamespace" }],
  ["SHOW NAMESPACES;", { kind: "showNamespaces" }],
  ["show namespaces", { kind: "showNamespaces" }],
  ['DECLARE DEFAULT NAMESPACE "us-reg1-xyz";', { kind: "declareDefaultNamespace", namespace: "us-reg1-xyz" }],
  [
    'DECLARE PARENT REGISTRY "https://root:4000/graphql" WITH TOKEN "s3cret";',
    { kind: "declareParentRegistry", url: "https://root:4000/graphql", token: "s3cret" },
  ],
  [
    'declare parent registry "https://aws:4000/graphql"\n  with token "t\\u0041"',
    { kind: "declareParentRegistry", url: "https://aws:4000/graphql", token: "tA" },
  ],
  ["DROP PARENT REGISTRY;", { kind: "dropParentRegistry" }],
  ["drop parent registry", { kind: "dropParentRegistry" }],
  ['DECLARE CLUSTER "c1";', { kind: "declareCluster", cluster: "c1" }],
  [
    'DECLARE CLUSTER "c1" WITH PROVIDER "kafka" WITH CONFIG { "apache.kafka": { "bootstrap.servers": "k:9092" } };',
    {
      kind: "declareCluster",
      cluster: "c1",
      provider: "kafka",
      config: { "apache.kafka": { "bootstrap.servers": "k:9092" } },
    },
  ],
  [
    'DECLARE CLUSTER "c1" WITH CONFIG {} WITH PROVIDER "kafka";',
    { kind: "declareCluster", cluster: "c1", provider: "kafka", config: {} },
  ],
  ['CREATE STREAM "s";', { kind: "createStream", stream: "s" }],
  [
    'CREATE STREAM "s" WITH CONSUMER CONFIG {"a": {"x": 1}} WITH CONFIG {"apache.kafka": {"partitions": 3}};',
    { kind: "createStream", stream: "s", config: KAFKA, consumerConfig: { a: { x: 1 } } },
  ],
  [
    'UPDATE STREAM "s" WITH PRODUCER CONFIG {"a": {"acks": "all"}};',
    { kind: "updateStream", stream: "s", producerConfig: { a: { acks: "all" } } },
  ],
  ['DELETE STREAM "s";', { kind: "deleteStream", stream: "s", cascade: false }],
  ['DELETE STREAM "s" CASCADE;', { kind: "deleteStream", stream: "s", cascade: true }],
  ['CREATE BINDING "s" TO CLUSTER "c";', { kind: "createBinding", stream: "s", cluster: "c" }],
  [
    'UPDATE BINDING "s" TO CLUSTER "c" WITH CONFIG {"apache.kafka": {"partitions": 3}};',
    { kind: "updateBinding", stream: "s", cluster: "c", config: KAFKA },
  ],
  ['DELETE BINDING "s" FROM CLUSTER "c";', { kind: "deleteBinding", stream: "s", cluster: "c" }],
  ['DELETE BINDING "s" ON CLUSTER "c";', { kind: "deleteBinding", stream: "s", cluster: "c" }],
  ['DELETE BINDING "s" TO CLUSTER "c";', { kind: "deleteBinding", stream: "s", cluster: "c" }],
  ['DESCRIBE BINDINGS "s";', { kind: "describeBindings", stream: "s" }],
  [
    'REGISTER KEY SCHEMA ("string") ON STREAM "s";',
    { kind: "registerKeySchema", stream: "s", schema: { kind: "inline", schema: "string" } },
  ],
  [
    'REGISTER TYPE SCHEMA "Widget" ( FILE schemas/widget-v1.avsc ) ON STREAM "s";',
    {
      kind: "registerTypeSchema",
      typeName: "Widget",
      stream: "s",
      schema: { kind: "file", path: "schemas/widget-v1.avsc" },
    },
  ],
  [
    'REGISTER TYPE SCHEMA "Widget" ( FILE "my schemas/widget.avsc" ) ON STREAM "s";',
    {
      kind: "registerTypeSchema",
      typeName: "Widget",
      stream: "s",
      schema: { kind: "file", path: "my schemas/widget.avsc" },
    },
  ],
  [
    'REGISTER TYPE SCHEMA "Widget" (FILE ../w.avsc) ON STREAM "s";',
    {
      kind: "registerTypeSchema",
      typeName: "Widget",
      stream: "s",
      schema: { kind: "file", path: "../w.avsc" },
    },
  ],
  [
    'REGISTER TYPE SCHEMA "Widget" ({"type": "record", "name": "Widget", "fields": [{"name": "id", "type": "long"},]}) ON STREAM "s";',
    {
      kind: "registerTypeSchema",
      typeName: "Widget",
      stream: "s",
      schema: {
        kind: "inline",
        schema: { type: "record", name: "Widget", fields: [{ name: "id", type: "long" }] },
      },
    },
  ],
  [
    'REGISTER TYPE SCHEMA "Widget" ( FILE widget.proto ) AS protobuf ON STREAM "s";',
    {
      kind: "registerTypeSchema",
      typeName: "Widget",
      stream: "s",
      schema: { kind: "file", path: "widget.proto" },
      schemaType: "PROTOBUF",
    },
  ],
  [
    'REGISTER KEY SCHEMA ({"type": "string"}) AS JSON ON STREAM "s";',
    {
      kind: "registerKeySchema",
      stream: "s",
      schema: { kind: "inline", schema: { type: "string" } },
      schemaType: "JSON",
    },
  ],
  [
    'REGISTER KEY SCHEMA ("string") AS AVRO ON STREAM "s";',
    {
      kind: "registerKeySchema",
      stream: "s",
      schema: { kind: "inline", schema: "string" },
      schemaType: "AVRO",
    },
  ],
  ['SHOW SOURCE TYPES FOR CLUSTER "c";', { kind: "showSourceTypes", cluster: "c" }],
  ['SHOW SINK TYPES FOR CLUSTER "c";', { kind: "showSinkTypes", cluster: "c" }],
  [
    'CREATE STREAM SOURCE "src" WITH TYPE "jdbc" ON CLUSTER "c";',
    { kind: "createStreamSource", source: "src", type: "jdbc", cluster: "c" },
  ],
  [
    'CREATE STREAM SOURCE "src" WITH TYPE "jdbc" WITH CONFIG {"jdbc": {"url": "x"}} ON CLUSTER "c";',
    { kind: "createStreamSource", source: "src", type: "jdbc", config: { jdbc: { url: "x" } }, cluster: "c" },
  ],
  ['DESCRIBE STREAM SOURCE "src";', { kind: "describeStreamSource", source: "src" }],
  ['UPDATE STREAM SOURCE "src" WITH CONFIG {};', { kind: "updateStreamSource", source: "src", config: {} }],
  ['DELETE STREAM SOURCE "src";', { kind: "deleteStreamSource", source: "src" }],
  [
    'CREATE STREAM SINK "snk" WITH TYPE "s3" WITH CONFIG {"s3-sink": {}} ON CLUSTER "c";',
    { kind: "createStreamSink", sink: "snk", type: "s3", config: { "s3-sink": {} }, cluster: "c" },
  ],
  ['DESCRIBE STREAM SINK "snk";', { kind: "describeStreamSink", sink: "snk" }],
  [
    'UPDATE STREAM SINK "snk" WITH CONFIG {"s3-sink": {"bucket": "b"}};',
    { kind: "updateStreamSink", sink: "snk", config: { "s3-sink": { bucket: "b" } } },
  ],
  ['DELETE STREAM SINK "snk";', { kind: "deleteStreamSink", sink: "snk" }],
  [
    'REPLICATE BINDING "cluster001/widgets_v0" TO CLUSTER "cluster002";',
    { kind: "replicateBinding", sourceCluster: "cluster001", stream: "widgets_v0", cluster: "cluster002" },
  ],
  [
    'REPLICATE BINDING "c34/w" FROM NAMESPACE "/brickco/aws" TO CLUSTER "c2";',
    { kind: "replicateBinding", sourceCluster: "c34", stream: "w", namespace: "/brickco/aws", cluster: "c2" },
  ],
  ["SHOW REPLICATIONS;", { kind: "showReplications" }],
  ['SHOW REPLICATIONS ON CLUSTER "c2";', { kind: "showReplications", cluster: "c2" }],
  [
    'CREATE STREAM RELOCATION "w" FROM CLUSTER "a" TO CLUSTER "b";',
    { kind: "createStreamRelocation", stream: "w", fromCluster: "a", toCluster: "b" },
  ],
  [
    'DESCRIBE STREAM RELOCATION "w" FROM CLUSTER "a";',
    { kind: "describeStreamRelocation", stream: "w", fromCluster: "a" },
  ],
  [
    'DELETE STREAM RELOCATION "w" FROM CLUSTER "a";',
    { kind: "deleteStreamRelocation", stream: "w", fromCluster: "a" },
  ],
  ["SHOW STREAMS;", { kind: "showStreams" }],
  ['SHOW STREAMS LIKE "widgets%";', { kind: "showStreams", like: "widgets%" }],
  ["SHOW CLUSTERS;", { kind: "showClusters" }],
  ['DESCRIBE STREAM "w";', { kind: "describeStream", stream: "w" }],
];

describe("statement forms", () => {
  for (const [text, tree] of CASES) {
    it(`parses ${text.slice(0, 70)}`, () => {
      expect(parseOne(text)).toStrictEqual(tree);
    });
  }

  it("records spans: 1-based line/column, offsets covering the statement and its `;`", () => {
    const text = 'SHOW NAMESPACE;\n\n  DESCRIBE STREAM "w" ;\nSHOW CLUSTERS';
    const [first, second, third] = parse(text);
    expect(first!.span).toEqual({ line: 1, column: 1, offset: 0, endOffset: 15 });
    expect(second!.span).toMatchObject({ line: 3, column: 3 });
    expect(text.slice(second!.span.offset, second!.span.endOffset)).toBe('DESCRIBE STREAM "w" ;');
    expect(text.slice(third!.span.offset, third!.span.endOffset)).toBe("SHOW CLUSTERS");
  });

  it("records the span of a schema body", () => {
    const text = 'REGISTER TYPE SCHEMA "T" (\n  FILE x.avsc\n) ON STREAM "s";';
    const [statement] = parse(text);
    if (statement?.kind !== "registerTypeSchema") throw new Error(`unexpected ${statement?.kind}`);
    expect(statement.schema.span).toMatchObject({ line: 2, column: 3 });
    expect(text.slice(statement.schema.span.offset, statement.schema.span.endOffset)).toBe("FILE x.avsc");
  });

  it("keeps config keys in written order and numbers, booleans, null and arrays as JSON", () => {
    const statement = parseOne(
      'CREATE STREAM "s" WITH CONFIG {"z": {"b": 1.5, "a": -2e3, "t": true, "f": false, "n": null, "l": ["x", 0]}, "a": {}};',
    );
    if (statement.kind !== "createStream") throw new Error(`unexpected ${statement.kind}`);
    expect(Object.keys(statement.config!)).toEqual(["z", "a"]);
    expect(Object.keys(statement.config!.z as object)).toEqual(["b", "a", "t", "f", "n", "l"]);
    expect(statement.config).toStrictEqual({
      z: { b: 1.5, a: -2000, t: true, f: false, n: null, l: ["x", 0] },
      a: {},
    });
  });

  it('keeps a "__proto__" key as an ordinary key', () => {
    const statement = parseOne('UPDATE STREAM "s" WITH CONFIG {"__proto__": {"polluted": true}};');
    if (statement.kind !== "updateStream") throw new Error(`unexpected ${statement.kind}`);
    expect(Object.keys(statement.config!)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(statement.config)).toBe(Object.prototype);
  });
});

import { describe, expect, it } from "vitest";
import { parse, print, printScript } from "../src/index.ts";

describe("printer", () => {
  it("writes uppercase keywords, canonical clause order and 2-space indented config blocks", () => {
    const [statement] = parse(
      'create stream "w" with consumer config {"a": {"x": [1, {"y": null}], "e": {}, "l": []}} with config {"m": {"k": "v"}}',
    );
    expect(print(statement!)).toBe(
      [
        'CREATE STREAM "w" WITH CONFIG {',
        '  "m": {',
        '    "k": "v"',
        "  }",
        "} WITH CONSUMER CONFIG {",
        '  "a": {',
        '    "x": [',
        "      1,",
        "      {",
        '        "y": null',
        "      }",
        "    ],",
        '    "e": {},',
        '    "l": []',
        "  }",
        "};",
      ].join("\n"),
    );
  });

  it("writes schema bodies on their own line, paths bare when they can be", () => {
    const [bare, quoted, inline] = parse(
      [
        'register type schema "T" (file widget.avsc) on stream "s";',
        'register type schema "T" (file "a b.avsc") on stream "s";',
        'register key schema ({"type": "string"}) on stream "s";',
      ].join("\n"),
    );
    expect(print(bare!)).toBe('REGISTER TYPE SCHEMA "T" (\n  FILE widget.avsc\n) ON STREAM "s";');
    expect(print(quoted!)).toBe('REGISTER TYPE SCHEMA "T" (\n  FILE "a b.avsc"\n) ON STREAM "s";');
    expect(print(inline!)).toBe('REGISTER KEY SCHEMA (\n  {\n    "type": "string"\n  }\n) ON STREAM "s";');
  });

  it("writes a schema's AS type after its body", () => {
    const [typed] = parse('register type schema "T" (file w.proto) as Protobuf on stream "s"');
    expect(print(typed!)).toBe('REGISTER TYPE SCHEMA "T" (\n  FILE w.proto\n) AS PROTOBUF ON STREAM "s";');
  });

  it("writes one canonical form of the forms read several ways", () => {
    const texts = ['delete binding "s" on cluster "c"', 'DELETE BINDING "s" TO CLUSTER "c"'];
    for (const text of texts) expect(print(parse(text)[0]!)).toBe('DELETE BINDING "s" FROM CLUSTER "c";');
    const [cluster] = parse('DECLARE CLUSTER "c" WITH CONFIG {} WITH PROVIDER "kafka"');
    expect(print(cluster!)).toBe('DECLARE CLUSTER "c" WITH PROVIDER "kafka" WITH CONFIG {};');
  });

  it("writes the parent registry statements, the token included so they read back the same", () => {
    const [declare, drop, show] = parse(
      'declare parent registry "https://root/graphql" with token "a\\"b"\ndrop parent registry\nshow namespaces',
    );
    expect(print(declare!)).toBe('DECLARE PARENT REGISTRY "https://root/graphql" WITH TOKEN "a\\"b";');
    expect(print(drop!)).toBe("DROP PARENT REGISTRY;");
    expect(print(show!)).toBe("SHOW NAMESPACES;");
  });

  it("escapes names so they read back the same", () => {
    const [statement] = parse(String.raw`DESCRIBE STREAM "q\"b\\s\u0001\n";`);
    expect(print(statement!)).toBe(String.raw`DESCRIBE STREAM "q\"b\\s\u0001\n";`);
  });

  it("keeps negative zero and exponents exact", () => {
    const [statement] = parse('UPDATE STREAM "s" WITH CONFIG {"m": {"a": -0, "b": 1e300, "c": 0.1}}');
    expect(print(statement!)).toContain('"a": -0,\n    "b": 1e+300,\n    "c": 0.1');
  });

  it("prints a script one statement per line with a final newline", () => {
    expect(printScript(parse("show namespace\nshow clusters"))).toBe("SHOW NAMESPACE;\nSHOW CLUSTERS;\n");
    expect(printScript([])).toBe("");
  });
});

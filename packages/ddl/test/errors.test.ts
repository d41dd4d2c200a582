import { describe, expect, it } from "vitest";
import { DdlSyntaxError, parse } from "../src/index.ts";

function syntaxError(text: string): DdlSyntaxError {
  try {
    parse(text, { fileName: "widgets.sql" });
  } catch (error) {
    if (error instanceof DdlSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a DdlSyntaxError for: ${text}`);
}

const STATEMENT_STARTS = [
  '"CREATE"',
  '"DECLARE"',
  '"DELETE"',
  '"DESCRIBE"',
  '"DROP"',
  '"GRANT"',
  '"PAUSE"',
  '"REGISTER"',
  '"REPLICATE"',
  '"RESTART"',
  '"RESUME"',
  '"REVOKE"',
  '"ROTATE"',
  '"SHOW"',
  '"STOP"',
  '"SUSPEND"',
  '"UPDATE"',
];

describe("syntax errors", () => {
  it("name file:line:column, what was expected and what was found", () => {
    const error = syntaxError('SHOW NAMESPACE;\nDECLARE CLUSTER "c";\nCREATE BINDING "w" TO CLUSTR "c";');
    expect(error).toMatchObject({
      fileName: "widgets.sql",
      line: 3,
      column: 23,
      expected: ['"CLUSTER"'],
      found: '"CLUSTR"',
    });
    expect(error.message).toBe('widgets.sql:3:23: expected "CLUSTER", found "CLUSTR"');
    expect(error.name).toBe("DdlSyntaxError");
  });

  it("list every statement keyword for an unknown statement", () => {
    const error = syntaxError("SHOW CLUSTERS;\n  FOO BAR;");
    expect(error).toMatchObject({ line: 2, column: 3, expected: STATEMENT_STARTS, found: '"FOO"' });
    expect(error.message).toBe(
      `widgets.sql:2:3: expected one of ${STATEMENT_STARTS.join(", ")}, found "FOO"`,
    );
  });

  it("list the optional clauses that could have followed, with `;`", () => {
    const error = syntaxError('CREATE STREAM "s" WITH CONFIG {} WITH STUFF {};');
    expect(error).toMatchObject({
      line: 1,
      column: 39,
      expected: ['"CONFIG"', '"PRODUCER"', '"CONSUMER"'],
      found: '"STUFF"',
    });
    const after = syntaxError('CREATE STREAM "s" WITH CONFIG {} ON CLUSTER "c";');
    expect(after).toMatchObject({ column: 34, expected: ['"WITH"', '";"'], found: '"ON"' });
  });

  it("say a name must be quoted", () => {
    const error = syntaxError("DESCRIBE STREAM widgets;");
    expect(error).toMatchObject({ column: 17, found: '"widgets"' });
    expect(error.expected).toContain("a quoted stream name");
    expect(error.message).toContain('names are written in double quotes: "widgets"');
  });

  it("reject an empty name", () => {
    expect(syntaxError('DECLARE CLUSTER "";').message).toBe(
      "widgets.sql:1:17: the cluster name must not be empty",
    );
  });

  it("point at the start of an unterminated string", () => {
    const error = syntaxError('SHOW NAMESPACE;\nDECLARE CLUSTER "c1;\nSHOW CLUSTERS;');
    expect(error).toMatchObject({ line: 2, column: 17, found: "end of line", incomplete: false });
    expect(error.message).toMatch(/^widgets\.sql:2:17: unterminated string/);
    // More lines cannot close a string, even when it runs to the end of the input.
    expect(syntaxError('DECLARE CLUSTER "c1')).toMatchObject({ found: "end of input", incomplete: false });
  });

  it("say where an unclosed config block was opened", () => {
    const error = syntaxError('CREATE STREAM "s" WITH CONFIG {\n  "a": {\n    "x": 1,\n');
    expect(error).toMatchObject({
      line: 4,
      column: 1,
      expected: ['"}"', "a quoted key"],
      found: "end of input",
      incomplete: true,
    });
    expect(error.message).toContain('(the "{" at 2:8 is never closed)');
  });

  it("reject an unquoted config key, a missing colon and a missing comma", () => {
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { a: 1 };')).toMatchObject({
      column: 33,
      expected: ['"}"', "a quoted key"],
      found: '"a"',
    });
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a" 1 };')).toMatchObject({
      column: 37,
      expected: ['":"'],
    });
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": {} "b": {} };')).toMatchObject({
      column: 41,
      expected: ['","', '"}"'],
      found: 'string "b"',
    });
  });

  it("reject a duplicate config key and a duplicate clause", () => {
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": {}, "a": {} };').message).toBe(
      'widgets.sql:1:42: duplicate key "a" in config block',
    );
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG {} WITH CONFIG {};').message).toBe(
      "widgets.sql:1:34: WITH CONFIG is given twice",
    );
  });

  it("reject bad escapes, bad numbers, unsafe integers and stray characters", () => {
    expect(syntaxError('DESCRIBE STREAM "a\\qb";').message).toContain('invalid escape "\\q"');
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": { "n": 10ms } };')).toMatchObject({
      column: 45,
      found: '"10ms"',
    });
    expect(
      syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": { "n": 12345678901234567890 } };').message,
    ).toContain("write it as a string");
    expect(syntaxError("SHOW NAMESPACE @").message).toBe('widgets.sql:1:16: unexpected character "@"');
  });

  it("reject numbers that would become Infinity or 0 instead of changing them", () => {
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": { "n": 1e400 } };').message).toBe(
      "widgets.sql:1:45: number 1e400 is out of range (it would become Infinity); write it as a string",
    );
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": { "n": -1e400 } };').message).toContain(
      "widgets.sql:1:45: number -1e400 is out of range",
    );
    expect(syntaxError('UPDATE STREAM "s" WITH CONFIG { "a": {\n "n": 0.5e-400 } };').message).toBe(
      "widgets.sql:2:7: number 0.5e-400 is too small (it would become 0); write it as a string",
    );
    const [statement] = parse(
      'UPDATE STREAM "s" WITH CONFIG { "a": { "z": 0e-400, "y": 0.0, "x": 1e-300 } };',
    );
    expect(JSON.stringify(statement)).toContain('{"z":0,"y":0,"x":1e-300}');
  });

  it("reject a replicated binding that is not <cluster>/<stream>", () => {
    for (const binding of ["widgets_v0", "/c/w", "c/", "a/b/c"]) {
      const error = syntaxError(`REPLICATE BINDING "${binding}" TO CLUSTER "c";`);
      expect(error).toMatchObject({ column: 19, expected: ['"<cluster>/<stream>"'] });
    }
  });

  it("require WITH TYPE and ON CLUSTER on CREATE STREAM SOURCE / SINK, WITH CONFIG on UPDATE", () => {
    expect(syntaxError('CREATE STREAM SINK "k" ON CLUSTER "c";').message).toContain(
      'needs WITH TYPE "<type>"',
    );
    expect(syntaxError('CREATE STREAM SOURCE "k" WITH TYPE "t";')).toMatchObject({
      expected: ['"WITH"', '"ON"'],
      found: '";"',
    });
    expect(syntaxError('UPDATE STREAM SOURCE "k";')).toMatchObject({ expected: ['"WITH"'], found: '";"' });
  });

  it("explain the seed's `...` elisions", () => {
    const error = syntaxError('CREATE STREAM "widgets_v0" ...;');
    expect(error).toMatchObject({ column: 28, expected: ['"WITH"', '";"'], found: '"..."' });
    expect(error.message).toContain("elided");
  });

  it("reject a schema body that is neither FILE nor JSON", () => {
    expect(syntaxError('REGISTER KEY SCHEMA ( 42 ) ON STREAM "s";')).toMatchObject({
      column: 23,
      expected: ['"FILE"', '"{"', '"["', "an inline JSON schema"],
      found: "number 42",
    });
    expect(syntaxError('REGISTER KEY SCHEMA ( FILE ) ON STREAM "s";')).toMatchObject({
      column: 28,
      expected: ["a file path"],
    });
  });

  it("point at the brace that is still open when a block ends without its closing brace", () => {
    const error = syntaxError('CREATE STREAM "s" WITH CONFIG {\n  "a": { "x": 1 }\n\nCREATE STREAM "t";');
    expect(error).toMatchObject({ line: 4, column: 1, found: '"CREATE"', incomplete: false });
    expect(error.message).toBe(
      'widgets.sql:4:1: expected one of ",", "}", found "CREATE" (the "{" at 1:31 is still open here)',
    );
    expect(syntaxError('CREATE STREAM "s" WITH CONFIG {\n  "a": { "x": 1 \n};').message).toContain(
      '(the "{" at 1:31 is still open here)',
    );
    expect(syntaxError('REGISTER KEY SCHEMA ( ["null", "string" ) ON STREAM "s";').message).toContain(
      '(the "[" at 1:23 is still open here)',
    );
  });

  it("say that strings are written in double quotes when single quotes are used, quoting nothing back", () => {
    const error = syntaxError("CREATE STREAM 'widgets_v0';");
    expect(error.message).toBe(
      `widgets.sql:1:15: unexpected character "'" (names and strings are written in double quotes, "...", not '...')`,
    );
    expect(syntaxError(`DECLARE PARENT REGISTRY "u" WITH TOKEN 's3cret-token';`).message).not.toContain(
      "s3cret",
    );
  });

  it("name the schema types AS takes", () => {
    expect(syntaxError('REGISTER KEY SCHEMA ( "string" ) AS XML ON STREAM "s";')).toMatchObject({
      column: 37,
      expected: ['"AVRO"', '"JSON"', '"PROTOBUF"'],
      found: '"XML"',
    });
    expect(syntaxError('REGISTER KEY SCHEMA ( "string" ) ON "s";')).toMatchObject({ expected: ['"STREAM"'] });
  });

  it("require the enrollment token on DECLARE PARENT REGISTRY and say how to write it", () => {
    const error = syntaxError('DECLARE PARENT REGISTRY "https://root/graphql";');
    expect(error).toMatchObject({ line: 1, column: 47, expected: ['"WITH"'], found: '";"' });
    expect(error.message).toBe(
      'widgets.sql:1:47: expected "WITH", found ";" (the parent\'s enrollment token is required: ' +
        'DECLARE PARENT REGISTRY "<url>" WITH TOKEN "<token>", where <token> is the parent\'s REGISTRY_ENROLLMENT_TOKEN)',
    );
    expect(syntaxError('DECLARE PARENT REGISTRY "u" WITH CONFIG {};')).toMatchObject({
      expected: ['"TOKEN"'],
      found: "a word",
    });
    // At the end of the text the statement may go on (the REPL reads another line).
    expect(syntaxError('DECLARE PARENT REGISTRY "u"').incomplete).toBe(true);
  });

  it("never quote back what was written where the token goes: it may be the token", () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['DECLARE PARENT REGISTRY "u" "hunter2";', { expected: ['"WITH"'], found: "a string" }],
      ['DECLARE PARENT REGISTRY "u" WITH "hunter2";', { expected: ['"TOKEN"'], found: "a string" }],
      [
        'DECLARE PARENT REGISTRY "u" WITH TOKEN hunter2;',
        { expected: ["a quoted enrollment token"], found: "a word" },
      ],
      [
        'DECLARE PARENT REGISTRY "u" WITH TOKEN 1234;',
        { expected: ["a quoted enrollment token"], found: "a number" },
      ],
    ];
    for (const [text, fields] of cases) {
      const error = syntaxError(text);
      expect(error, text).toMatchObject(fields);
      expect(error.message, text).not.toMatch(/hunter2|1234/);
    }
    expect(syntaxError('DECLARE PARENT REGISTRY "u" WITH TOKEN "";').message).toContain(
      "the enrollment token must not be empty",
    );
  });

  it("read DROP PARENT REGISTRY whole, and SHOW NAMESPACE beside SHOW NAMESPACES", () => {
    expect(syntaxError("DROP;")).toMatchObject({
      column: 5,
      expected: ['"CHILD"', '"PARENT"'],
      found: '";"',
    });
    expect(syntaxError("DROP PARENT;")).toMatchObject({ expected: ['"REGISTRY"'] });
    expect(syntaxError('DROP PARENT REGISTRY "u";')).toMatchObject({
      expected: ['";"'],
      found: 'string "u"',
    });
    expect(syntaxError("SHOW NAMESPACESS;")).toMatchObject({ found: '"NAMESPACESS"' });
  });

  it("use <input> when no file name is given", () => {
    expect(() => parse("SHOW")).toThrow(/^<input>:1:5: expected one of .*"NAMESPACE".*, found end of input$/);
  });
});

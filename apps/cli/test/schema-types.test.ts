import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";
import { runSrctl } from "./support/run-srctl.ts";

const schemaTypes = fileURLToPath(new URL("./fixtures/schema-types/schema_types.sql", import.meta.url));

/** The Type, Subject and Format cells of DESCRIBE STREAM's subject rows (after its table's header). */
const subjectRows = (stdout: string, stream: string) =>
  stdout
    .slice(stdout.search(/\| Type\s+\| Subject/))
    .split("\n")
    .filter((line) => line.includes(`${stream}-`))
    .map((row) =>
      row
        .split("|")
        .map((cell) => cell.trim())
        .filter((_, i) => [1, 2, 5].includes(i)),
    );

describe("REGISTER ... SCHEMA of JSON Schema and Protobuf against a registry process", () => {
  const registry = useRegistryProcess("pglite");

  it("takes the type from the FILE's extension and from AS, and DESCRIBE STREAM shows each subject's format", async () => {
    const applied = await runSrctl(["--registry", registry().url, "apply", "-f", schemaTypes], {
      cwd: tmpdir(),
    });
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(ExitCode.OK);
    expect(applied.stdout).toMatch(/\| Type\s+\| Subject\s+\| Version \|\s+Id \| Format\s+\|/);
    expect(subjectRows(applied.stdout, "widget_formats_v0")).toEqual([
      ["(key)", "widget_formats_v0-key", "JSON"],
      ["WidgetCreated", "widget_formats_v0-WidgetCreated", "PROTOBUF"],
      ["WidgetDeleted", "widget_formats_v0-WidgetDeleted", "PROTOBUF"],
      ["WidgetRenamed", "widget_formats_v0-WidgetRenamed", "JSON"],
    ]);
  });
});

describe("REGISTER ... SCHEMA's schema type", () => {
  async function sentInputs(script: string, files: Record<string, string> = {}) {
    const dir = await mkdtemp(path.join(tmpdir(), "srctl-schema-types-"));
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    await using fake = await startFakeRegistry({ Query: [], Mutation: ["registerKeySchema"] }, () => ({
      body: {
        data: { registerKeySchema: { schema: { subject: "w-key", version: 1, id: 1 }, userErrors: [] } },
      },
    }));
    const report = await createSrctl({ registry: fake.url }).run(script, { baseDir: dir });
    const inputs = fake.requests.filter((r) => !r.query.includes("__schema")).map((r) => r.variables?.input);
    return { report, inputs };
  }

  it("sends the .proto text as it is, AS overriding the extension, and an inline Protobuf string unquoted", async () => {
    const proto = 'syntax = "proto3"; message K { string id = 1; }';
    const { report, inputs } = await sentInputs(
      [
        'REGISTER KEY SCHEMA ( FILE k.proto ) ON STREAM "w";',
        'REGISTER KEY SCHEMA ( FILE k.avsc ) AS JSON ON STREAM "w";',
        `REGISTER KEY SCHEMA ( ${JSON.stringify(proto)} ) AS PROTOBUF ON STREAM "w";`,
        'REGISTER KEY SCHEMA ( "string" ) ON STREAM "w";',
      ].join("\n"),
      { "k.proto": proto, "k.avsc": '{"type": "string"}' },
    );
    expect(report.exitCode).toBe(ExitCode.OK);
    expect(inputs).toEqual([
      { stream: "w", schema: proto, schemaType: "PROTOBUF" },
      { stream: "w", schema: '{"type": "string"}', schemaType: "JSON" },
      { stream: "w", schema: proto, schemaType: "PROTOBUF" },
      { stream: "w", schema: '"string"', schemaType: "AVRO" },
    ]);
  });

  it("refuses a FILE whose extension names no type, saying how to name it, and sends nothing", async () => {
    const { report, inputs } = await sentInputs('REGISTER KEY SCHEMA ( FILE k.txt ) ON STREAM "w";', {
      "k.txt": '"string"',
    });
    expect(report.exitCode).toBe(ExitCode.BAD_INPUT);
    expect(report.results[0]?.error?.message).toBe(
      "FILE k.txt: its extension does not say the schema's type: name the file .avsc (Avro), " +
        ".json (JSON Schema) or .proto (Protobuf), or write AS AVRO, AS JSON or AS PROTOBUF after the ( ... )",
    );
    expect(inputs).toEqual([]);
  });
});

import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";
import { runSrctl } from "./support/run-srctl.ts";

const commandEvents = fileURLToPath(new URL("./fixtures/schemas/command_events.sql", import.meta.url));

/** The seed's table of one registered schema, with its column widths. */
const table = (subject: string, version: number, id: number) => {
  const [width, idWidth] = [Math.max(subject.length, "Subject".length), Math.max(String(id).length, 2)];
  return [
    `| ${"Subject".padEnd(width)} | Version | ${"Id".padStart(idWidth)} |`,
    `|-${"-".repeat(width)}-+---------+-${"-".repeat(idWidth)}-|`,
    `| ${subject.padEnd(width)} | ${String(version).padStart(7)} | ${String(id).padStart(idWidth)} |`,
  ].join("\n");
};

describe("REGISTER KEY / TYPE SCHEMA and DESCRIBE STREAM against a registry process", () => {
  const registry = useRegistryProcess("pglite");

  it("registers the seed's key and types (FILE next to the script, inline), prints the seed's tables, and DESCRIBE STREAM lists the subjects", async () => {
    const applied = await runSrctl(["--registry", registry().url, "apply", "-f", commandEvents], {
      cwd: tmpdir(),
    });
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(ExitCode.OK);
    const ids = [...applied.stdout.matchAll(/\|\s+(\d+) \|\n/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(3);
    expect(applied.stdout).toContain(table("widget_command_events_v0-key", 1, ids[0]!));
    expect(applied.stdout).toContain(table("widget_command_events_v0-WidgetNameUpdated", 1, ids[1]!));
    expect(applied.stdout).toContain(table("widget_command_events_v0-WidgetColorUpdated", 1, ids[2]!));

    const described = await runSrctl([
      "--registry",
      registry().url,
      "-e",
      'DESCRIBE STREAM "widget_command_events_v0";',
    ]);
    expect(described.code).toBe(ExitCode.OK);
    expect(described.stdout).toMatch(/\| Type\s+\| Subject\s+\| Version \|\s+Id \|/);
    const rows = described.stdout.split("\n").filter((line) => line.includes("widget_command_events_v0-"));
    expect(
      rows.map((row) =>
        row
          .split("|")
          .map((cell) => cell.trim())
          .slice(1, 4),
      ),
    ).toEqual([
      ["(key)", "widget_command_events_v0-key", "1"],
      ["WidgetNameUpdated", "widget_command_events_v0-WidgetNameUpdated", "1"],
      ["WidgetColorUpdated", "widget_command_events_v0-WidgetColorUpdated", "1"],
    ]);
  });

  it("prints an incompatible schema's messages and a missing stream clearly", async () => {
    const srctl = createSrctl({ registry: registry().url, token: TEST_ADMIN_TOKEN });
    const incompatible = await srctl.run(
      `REGISTER TYPE SCHEMA "WidgetNameUpdated" (
         { "type": "record", "name": "WidgetNameUpdated", "namespace": "com.acme.widgets",
           "fields": [{ "name": "id", "type": "string" }, { "name": "name", "type": "string" }, { "name": "by", "type": "string" }] }
       ) ON STREAM "widget_command_events_v0";`,
    );
    expect(incompatible.exitCode).not.toBe(ExitCode.OK);
    expect(incompatible.results[0]?.error?.message).toMatch(
      /incompatible.*READER_FIELD_MISSING_DEFAULT_VALUE.*by/s,
    );
    const missing = await srctl.run(`REGISTER KEY SCHEMA ( "string" ) ON STREAM "no_such_v0";`);
    expect(missing.results[0]?.error?.message).toMatch(/stream "no_such_v0" does not exist/);
  });
});

describe("REGISTER ... SCHEMA with --namespace", () => {
  it("sends the namespace in the mutation's input", async () => {
    await using fake = await startFakeRegistry({ Query: [], Mutation: ["registerKeySchema"] }, () => ({
      body: {
        data: { registerKeySchema: { schema: { subject: "w-key", version: 1, id: 121 }, userErrors: [] } },
      },
    }));
    const report = await createSrctl({ registry: fake.url, namespace: "/aws" }).run(
      'REGISTER KEY SCHEMA ( "string" ) ON STREAM "w";',
    );
    expect(report.exitCode).toBe(ExitCode.OK);
    const sent = fake.requests.filter((r) => !r.query.includes("__schema")).at(-1);
    expect(sent?.variables?.input).toEqual({
      stream: "w",
      schema: '"string"',
      schemaType: "AVRO",
      namespace: "/aws",
    });
  });
});

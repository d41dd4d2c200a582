import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { runSrctl } from "./support/run-srctl.ts";

const widgetsSql = fileURLToPath(new URL("./fixtures/widgets.sql", import.meta.url));
const schemasSql = fileURLToPath(new URL("./fixtures/schemas.sql", import.meta.url));

// Copied from the seed (seeds/000, "Default Stream Bindings").
const seedDescribeBindings = `| stream     | cluster    | default |
|------------+------------+---------|
| widgets_v0 | cluster001 | yes     |
| widgets_v0 | cluster002 | no      |`;

describe("the seed's walkthrough through bin/srctl.js", () => {
  const registry = useRegistryProcess("pglite");

  it("applies a file, waits for the bindings, prints the seed's tables, and the queries show it", async () => {
    // From another directory: nothing may depend on the working directory.
    const applied = await runSrctl(["--registry", registry().url, "apply", "-f", widgetsSql, "--wait"], {
      cwd: tmpdir(),
    });
    expect(applied.stderr).not.toMatch(/error/);
    expect(applied.code).toBe(ExitCode.OK);
    expect(applied.stdout).toBe(
      [
        "cluster cluster001 (registry-only): created",
        "cluster cluster002 (registry-only): created",
        "stream widgets_v0: created",
        "binding widgets_v0 on cluster001: ONLINE",
        "binding widgets_v0 on cluster002: ONLINE",
        "",
        seedDescribeBindings,
        "",
        '"/"',
        "",
      ].join("\n"),
    );

    const shown = await runSrctl([
      "--registry",
      registry().url,
      "-e",
      `SHOW STREAMS LIKE "widgets%"; SHOW CLUSTERS;
       DESCRIBE STREAM "widgets_v0";`,
    ]);
    expect(shown.code).toBe(ExitCode.OK);
    expect(shown.stdout).toContain(
      `| stream     | bindings | default cluster |
|------------+----------+-----------------|
| widgets_v0 |        2 | cluster001      |`,
    );
    expect(shown.stdout).toContain(
      `| cluster    | provider      | bindings |
|------------+---------------+----------|
| cluster001 | registry-only |        1 |
| cluster002 | registry-only |        1 |`,
    );
    expect(shown.stdout).toContain(
      "| stream   | acme.kafka   | costcenter                     | 341D         |",
    );
    expect(shown.stdout).toContain(
      "| producer | apache.kafka | acks                           | all          |",
    );

    const json = await runSrctl([
      "--registry",
      registry().url,
      "--output",
      "json",
      "-e",
      'DESCRIBE BINDINGS "widgets_v0";',
    ]);
    expect(json.code).toBe(ExitCode.OK);
    const lines = json.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      statement: "DESCRIBE BINDINGS",
      file: "-e",
      line: 1,
      column: 1,
      ok: true,
      exitCode: 0,
      result: {
        type: "table",
        columns: ["stream", "cluster", "default"],
        rows: [
          { namespace: "/", stream: "widgets_v0", cluster: "cluster001", default: true, phase: "ONLINE" },
          { namespace: "/", stream: "widgets_v0", cluster: "cluster002", default: false, phase: "ONLINE" },
        ],
      },
      warnings: [],
    });
  });

  it("updates a stream and re-realizes its bindings, then deletes a binding and the stream", async () => {
    const url = registry().url;
    const setUp = await runSrctl([
      "--registry",
      url,
      "--wait",
      "-e",
      `DECLARE CLUSTER "life_a"; DECLARE CLUSTER "life_b"; CREATE STREAM "life_s";
       CREATE BINDING "life_s" TO CLUSTER "life_a"; CREATE BINDING "life_s" TO CLUSTER "life_b";
       UPDATE STREAM "life_s" WITH CONFIG { "acme.kafka": { "team": "t2", }, };
       DELETE BINDING "life_s" FROM CLUSTER "life_a";
       DESCRIBE BINDINGS "life_s";`,
    ]);
    expect(setUp.code).toBe(ExitCode.OK);
    expect(setUp.stdout).toContain("stream life_s: updated (generation 2, 2 bindings realized)");
    expect(setUp.stdout).toContain("binding life_s on life_a: deleted");
    // The next oldest binding became the default.
    expect(setUp.stdout).toContain(`| stream | cluster | default |
|--------+---------+---------|
| life_s | life_b  | yes     |`);

    const noWait = await runSrctl([
      "--registry",
      url,
      "-e",
      'DELETE BINDING "life_s" FROM CLUSTER "life_b";',
    ]);
    expect(noWait.stdout).toBe("binding life_s on life_b: DELETING\n");
    const deleted = await runSrctl(["--registry", url, "--wait", "-e", 'DELETE STREAM "life_s" CASCADE;']);
    expect(deleted.stdout).toBe("stream life_s: deleted\n");
    expect(deleted.code).toBe(ExitCode.OK);
  });

  it("works as a library without spawning a process", async () => {
    const srctl = createSrctl({ registry: registry().url, token: TEST_ADMIN_TOKEN });
    const report = await srctl.run(
      `DECLARE CLUSTER "lib_c";
       CREATE STREAM "lib_s";
       CREATE BINDING "lib_s" TO CLUSTER "lib_c";
       DESCRIBE BINDINGS "lib_s";`,
      { fileName: "inline.sql", wait: true },
    );
    expect(report.exitCode).toBe(ExitCode.OK);
    expect(report.results.map((r) => [r.statement, r.source.line, r.ok])).toEqual([
      ["DECLARE CLUSTER", 1, true],
      ["CREATE STREAM", 2, true],
      ["CREATE BINDING", 3, true],
      ["DESCRIBE BINDINGS", 4, true],
    ]);
    expect(report.results[2]?.output).toMatchObject({
      type: "mutation",
      message: "binding lib_s on lib_c: ONLINE",
      object: { kind: "binding", fqn: "/lib_c/lib_s", phase: "ONLINE", isDefault: true },
    });
    expect(report.results[3]?.output).toMatchObject({
      rows: [{ stream: "lib_s", cluster: "lib_c", default: true }],
    });
  });

  it("reads FILE schemas next to the script and prints the seed's table of the registered schema", async () => {
    const run = await runSrctl(["--registry", registry().url, "apply", "-f", schemasSql], { cwd: tmpdir() });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(ExitCode.OK);
    // The seed's table (seeds/000, "Single Type Schema per Stream"), with this registry's first id.
    expect(run.stdout).toBe(
      "| Subject           | Version | Id |\n|-------------------+---------+----|\n| widgets_v0-Widget |       1 |  1 |\n",
    );
  });
});

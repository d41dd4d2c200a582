import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

/** The seed's DESCRIBE STREAM SOURCE / SINK table (rules above and below), with its column widths. */
function seedTable(noun: "SOURCE" | "SINK", name: string, cluster: string, type: string, status: string) {
  const header = [`STREAM ${noun}`, "CLUSTER", "TYPE", "STATUS"];
  const row = [name, cluster, type, status];
  const widths = header.map((h, i) => Math.max(h.length, row[i]!.length));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("+")}|`;
  return [rule, line(header), rule, line(row), rule].join("\n");
}

// The test provider (packages/testkit/src/provider) keeps sources and sinks in memory.
describe("stream source and sink statements against a registry process", () => {
  const registry = useRegistryProcess("pglite");
  const srctl = (...args: string[]) => runMain(["--registry", registry().url, ...args]);
  const setUp = (cluster: string, stream: string) =>
    `DECLARE CLUSTER "${cluster}" WITH PROVIDER "test"; CREATE STREAM "${stream}";
     CREATE BINDING "${stream}" TO CLUSTER "${cluster}";`;

  it("SHOW SOURCE / SINK TYPES lists the cluster's types; a cluster without any says why", async () => {
    const run = await srctl(
      "-e",
      `DECLARE CLUSTER "ty_c" WITH PROVIDER "test"; DECLARE CLUSTER "ty_none";
       SHOW SOURCE TYPES FOR CLUSTER "ty_c"; SHOW SINK TYPES FOR CLUSTER "ty_none";`,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toMatch(/\|-+\|\n\| SOURCE TYPE +\|\n\|-+\|\n\| file +\|\n/);
    expect(run.stdout).toContain(
      'cluster ty_none has no sink types: provider "registry-only" does not realize stream sinks\n\n|-----------|\n| SINK TYPE |\n|-----------|\n|-----------|\n',
    );
  });

  it("creates a source and a sink, DESCRIBE prints the seed's table then what is flowing, SHOW lists them", async () => {
    const created = await srctl(
      "--wait",
      "-e",
      `${setUp("cs_c", "cs_src")} CREATE STREAM "cs_snk"; CREATE BINDING "cs_snk" TO CLUSTER "cs_c";
       CREATE STREAM SOURCE "cs_src" WITH TYPE "file" WITH CONFIG { "file-source": { "file": "/tmp/in.txt" } } ON CLUSTER "cs_c";
       CREATE STREAM SINK "cs_snk" WITH TYPE "file" WITH CONFIG { "file-sink": { "file": "/tmp/out.txt" } } ON CLUSTER "cs_c";`,
    );
    expect(created.stderr).not.toMatch(/error/);
    expect(created.code).toBe(ExitCode.OK);
    expect(created.stdout).toContain("stream source cs_src: ONLINE\nstream sink cs_snk: ONLINE\n");

    const described = await srctl("-e", 'DESCRIBE STREAM SOURCE "cs_src"; DESCRIBE STREAM SINK "cs_snk";');
    expect(described.code).toBe(ExitCode.OK);
    expect(described.stdout).toContain(seedTable("SOURCE", "cs_src", "cs_c", "file", "ONLINE"));
    expect(described.stdout).toContain(seedTable("SINK", "cs_snk", "cs_c", "file", "ONLINE"));
    expect(described.stdout).toMatch(/\| desired state +\| RUNNING +\|/);
    expect(described.stdout).toMatch(/\| connector +\| RUNNING \(observed \d{4}-\d\d-\d\dT[^)]+\) +\|/);
    expect(described.stdout).toMatch(/\| auto restarts +\| 0 +\|/);
    expect(described.stdout).toMatch(/\| TASK \| STATE +\| WORKER +\| ERROR +\|/);

    const listed = await srctl("-e", 'SHOW STREAM SOURCES LIKE "cs%"; SHOW STREAM SINKS;');
    expect(listed.code).toBe(ExitCode.OK);
    expect(listed.stdout).toContain(
      "| stream source | cluster | type | status |\n|---------------+---------+------+--------|\n| cs_src        | cs_c    | file | ONLINE |\n",
    );
    expect(listed.stdout).toMatch(/\| cs_snk +\| cs_c +\| file +\| ONLINE +\|/);
  });

  it("pauses, stops, resumes and restarts, each settling with --wait; without it says what was requested", async () => {
    const cluster = setUp("run_c", "run_src");
    const source = 'CREATE STREAM SOURCE "run_src" WITH TYPE "file" ON CLUSTER "run_c";';
    const made = await srctl("--wait", "-e", `${cluster} ${source}`);
    expect(made.code).toBe(ExitCode.OK);

    const paused = await srctl("--wait", "-e", 'PAUSE STREAM SOURCE "run_src";');
    expect(paused.stdout).toBe("stream source run_src: PAUSED\n");
    const described = await srctl("-e", 'DESCRIBE STREAM SOURCE "run_src";');
    expect(described.stdout).toContain(seedTable("SOURCE", "run_src", "run_c", "file", "PAUSED"));
    expect(described.stdout).toMatch(/\| desired state +\| PAUSED +\|/);

    const stopped = await srctl("--wait", "-e", 'STOP STREAM SOURCE "run_src";');
    expect(stopped.stdout).toBe("stream source run_src: STOPPED\n");
    const resumed = await srctl("--wait", "-e", 'RESUME STREAM SOURCE "run_src";');
    expect(resumed.stdout).toBe("stream source run_src: ONLINE\n");
    const restarted = await srctl("--wait", "-e", 'RESTART STREAM SOURCE "run_src" ONLY FAILED;');
    expect(restarted.stdout).toBe("stream source run_src: ONLINE\n");

    const requested = await srctl("-e", 'PAUSE STREAM SOURCE "run_src";');
    expect(requested.code).toBe(ExitCode.OK);
    expect(requested.stdout).toMatch(
      /^stream source run_src: (PENDING|ONLINE|PAUSED) \(pause requested\)\n$/,
    );
  });

  it("refuses bad input with userErrors naming the field and the exit code of their code, creating nothing", async () => {
    // bad_none is registry-only: bound, but with no platform for sources and sinks.
    await srctl(
      "-e",
      `${setUp("bad_c", "bad_src")} DECLARE CLUSTER "bad_none"; CREATE BINDING "bad_src" TO CLUSTER "bad_none";`,
    );
    const cases: [string, ExitCode, RegExp][] = [
      [
        'CREATE STREAM SOURCE "bad_src" WITH TYPE "no-such-type" ON CLUSTER "bad_c";',
        ExitCode.BAD_INPUT,
        /error: INVALID_INPUT at input\.type: unknown stream source type "no-such-type" on cluster "bad_c"; its types: file, postgres\n/,
      ],
      [
        'CREATE STREAM SOURCE "bad_src" WITH TYPE "file" WITH CONFIG { "test.connector": { "invalid": "topic" } } ON CLUSTER "bad_c";',
        ExitCode.BAD_INPUT,
        /error: PROVIDER_REJECTED at input\.config\.test\.connector\.topic: "topic" is refused by the platform\n/,
      ],
      [
        'CREATE STREAM SOURCE "bad_unbound" WITH TYPE "file" ON CLUSTER "bad_c";',
        ExitCode.NOT_FOUND,
        /error: NOT_FOUND at input\.name: stream "bad_unbound" is not bound to cluster "bad_c"/,
      ],
      [
        'CREATE STREAM SINK "bad_src" WITH TYPE "file" ON CLUSTER "bad_none";',
        ExitCode.UNSUPPORTED,
        /error: UNSUPPORTED at input\.cluster: cluster "bad_none" has no stream sinks: its provider "registry-only" does not realize them\n/,
      ],
    ];
    for (const [statement, code, message] of cases) {
      const run = await srctl("-e", statement);
      expect(run.stderr, statement).toMatch(message);
      expect(run.code, statement).toBe(code);
    }
    const listed = await srctl(
      "-o",
      "json",
      "-e",
      'SHOW STREAM SOURCES LIKE "bad%"; SHOW STREAM SINKS LIKE "bad%";',
    );
    for (const line of listed.stdout.trim().split("\n")) {
      expect((JSON.parse(line) as { result: { rows: unknown[] } }).result.rows).toEqual([]);
    }

    const duplicate = await srctl(
      "-e",
      `CREATE STREAM SOURCE "bad_src" WITH TYPE "file" ON CLUSTER "bad_c";
       CREATE STREAM SOURCE "bad_src" WITH TYPE "file" ON CLUSTER "bad_c";`,
    );
    expect(duplicate.stderr).toMatch(/error: ALREADY_EXISTS at input\.name: /);
    expect(duplicate.code).toBe(ExitCode.CONFLICT);
  });

  it("--wait ends with the wait-failed code and the reason when the provider refuses it for good", async () => {
    const run = await srctl(
      "--wait",
      "-e",
      `${setUp("fail_c", "fail_src")}
       CREATE STREAM SOURCE "fail_src" WITH TYPE "file" WITH CONFIG { "test.connector": { "failPermanently": true } } ON CLUSTER "fail_c";`,
    );
    expect(run.stderr).toContain(
      "error: stream source fail_src: FAILED (refused for good (failPermanently))",
    );
    expect(run.code).toBe(ExitCode.WAIT_FAILED);
    const described = await srctl("-e", 'DESCRIBE STREAM SOURCE "fail_src";');
    expect(described.stdout).toContain(seedTable("SOURCE", "fail_src", "fail_c", "file", "FAILED"));
    expect(described.stdout).toMatch(/\| message +\| .*refused for good \(failPermanently\)/);
  });

  it("updates and deletes; a deleted source is not found, exit 3", async () => {
    const made = await srctl(
      "--wait",
      "-e",
      `${setUp("upd_c", "upd_snk")}
       CREATE STREAM SINK "upd_snk" WITH TYPE "file" WITH CONFIG { "file-sink": { "file": "/tmp/a.txt" } } ON CLUSTER "upd_c";
       UPDATE STREAM SINK "upd_snk" WITH CONFIG { "file-sink": { "file": "/tmp/b.txt" } };
       DELETE STREAM SINK "upd_snk";`,
    );
    expect(made.stderr).not.toMatch(/error/);
    expect(made.stdout).toContain(
      "stream sink upd_snk: ONLINE\nstream sink upd_snk: ONLINE\nstream sink upd_snk: deleted\n",
    );
    const gone = await srctl("-e", 'DESCRIBE STREAM SINK "upd_snk";');
    expect(gone.code).toBe(ExitCode.NOT_FOUND);
    expect(gone.stderr).toContain('stream sink "upd_snk" does not exist');
  });
});

import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/index.ts";
import { useTestRegistry } from "./support/registry.ts";
import { runSrctl } from "./support/run-srctl.ts";

describe("the REPL, driven through a pipe", () => {
  const registry = useTestRegistry("pglite");

  it("runs multi-line statements, prints errors without exiting, and keeps history", async () => {
    const history = path.join(await mkdtemp(path.join(tmpdir(), "srctl-repl-")), "history");
    const input = [
      "SHOW",
      "  NAMESPACE;",
      'CREATE STREAM "repl_s" WITH CONFIG { -- a comment that ends like a statement;',
      '  "acme.kafka": { "team": "repl-team", },',
      "};",
      'DESCRIBE BINDINGS "repl_missing";',
      "SHOW NAMESPAC;",
      'DESCRIBE STREAM "repl_s";',
      "exit",
      'CREATE STREAM "never_run";',
    ].join("\n");
    const run = await runSrctl(["--registry", registry().url], { input, env: { SRCTL_HISTORY: history } });
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toContain('srctl>    ...> "/"');
    expect(run.stdout).toContain("   ...>    ...> stream repl_s: created");
    expect(run.stdout).toContain("| stream | acme.kafka | team | repl-team |");
    expect(run.stdout).not.toContain("never_run");
    expect(run.stderr).toBe(
      'error: stream "repl_missing" does not exist\n' +
        '<repl>:1:6: expected one of "NAMESPACE", "CLUSTERS", "STREAMS", "REPLICATIONS", "SOURCE", "SINK", found "NAMESPAC"\n',
    );
    const saved = await readFile(history, "utf8");
    expect(saved.split("\n").slice(0, 2)).toEqual(["SHOW", "  NAMESPACE;"]);
    expect(saved).toContain('DESCRIBE STREAM "repl_s";\nexit\n');
  });
});

import { access, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runSrctl } from "./support/run-srctl.ts";

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

describe("the REPL, driven through a pipe", () => {
  const registry = useRegistryProcess("pglite");

  it("runs multi-line statements, prints errors and goes on, without prompts or history", async () => {
    const history = path.join(await mkdtemp(path.join(tmpdir(), "srctl-repl-")), "history");
    const input = [
      "SHOW",
      "  NAMESPACE;",
      'CREATE STREAM "repl_s" WITH CONFIG { -- a comment that ends like a statement;',
      '  "acme.kafka": { "team": "repl-team", "password": "s3cret" },',
      "};",
      'DESCRIBE BINDINGS "repl_missing";',
      "SHOW NAMESPAC;",
      'DESCRIBE STREAM "repl_s";',
      "exit",
      'CREATE STREAM "never_run";',
    ].join("\n");
    const run = await runSrctl(["--registry", registry().url], { input, env: { SRCTL_HISTORY: history } });
    // The first failure decides the exit code, as with `apply`; the later syntax error does not.
    expect(run.code).toBe(ExitCode.NOT_FOUND);
    expect(run.stdout).not.toContain("srctl>");
    expect(run.stdout).not.toContain("...>");
    expect(run.stdout.startsWith('"/"')).toBe(true);
    expect(run.stdout).toContain("stream repl_s: created");
    // The password row is a sealed secret's placeholder, so the value column is as wide as it.
    expect(run.stdout).toMatch(/\| stream \| acme\.kafka \| team {5}\| repl-team +\|/);
    expect(run.stdout).toMatch(/\| stream \| acme\.kafka \| password \| \*{8}:[0-9a-f]+ +\|/);
    expect(run.stdout).not.toContain("s3cret");
    expect(run.stdout).not.toContain("never_run");
    expect(run.stderr).toBe(
      'error: stream "repl_missing" does not exist\n' +
        '<repl>:1:6: expected one of "NAMESPACE", "NAMESPACES", "CLUSTERS", "GRANTS", "TOKENS", "CHILD", "STREAM", "STREAMS", "REPLICATIONS", "SOURCE", "SINK", found "NAMESPAC"\n',
    );
    // Piped input may carry credentials in config blocks: it is never saved.
    expect(await exists(history)).toBe(false);
  });

  it("prints one JSON document per line in -o json mode and exits with the failure's code", async () => {
    const input = 'SHOW NAMESPACE;\nDESCRIBE STREAM "repl_json_missing";\nSHOW CLUSTERS;\n';
    const run = await runSrctl(["--registry", registry().url, "-o", "json"], { input });
    expect(run.code).toBe(ExitCode.NOT_FOUND);
    const lines = run.stdout.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ statement: "SHOW NAMESPACE" });
  });

  it("exits 0 when every piped statement succeeds, and non-zero for a syntax error", async () => {
    const ok = await runSrctl(["--registry", registry().url], { input: "SHOW NAMESPACE;\n" });
    expect(ok).toMatchObject({ code: ExitCode.OK, stdout: '"/"\n' });
    const bad = await runSrctl(["--registry", registry().url], {
      input: "SHOW NAMESPAC;\nSHOW NAMESPACE;\n",
    });
    expect(bad.code).toBe(ExitCode.BAD_INPUT);
    expect(bad.stdout).toBe('"/"\n');
  });
});

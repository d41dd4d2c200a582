import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";
import { runSrctl } from "./support/run-srctl.ts";

describe("srctl failures", () => {
  const registry = useRegistryProcess("pglite");
  let dir: string;
  const script = async (name: string, text: string) => {
    const file = path.join(dir, name);
    await writeFile(file, text);
    return file;
  };
  // Most cases run main() in-process (same code, no process start); a few go through the binary.
  const srctl = (...args: string[]) => runMain(["--registry", registry().url, ...args]);
  const srctlBin = (...args: string[]) => runSrctl(["--registry", registry().url, ...args]);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "srctl-failures-"));
  });

  it("reports a syntax error as file:line:col and runs nothing of the file", async () => {
    const file = await script(
      "broken.sql",
      `DECLARE CLUSTER "syntax_c";\nCREATE STREAM "syntax_s";\nCREATE BINDING "syntax_s" TO CLUSTR "syntax_c";\n`,
    );
    const run = await srctlBin("apply", "-f", file);
    expect(run.code).toBe(ExitCode.BAD_INPUT);
    expect(run.stderr).toBe(`${file}:3:30: expected "CLUSTER", found "CLUSTR"\n`);
    expect(run.stdout).toBe("");
    const after = await srctl("-e", 'SHOW STREAMS LIKE "syntax%"; SHOW CLUSTERS;');
    expect(after.stdout).not.toContain("syntax_");
  });

  it("stops at the first failing statement and names it by file:line", async () => {
    const file = await script(
      "stops.sql",
      `CREATE STREAM "stop_s";\n\nCREATE BINDING "stop_s"\n  TO CLUSTER "no_such_cluster";\nCREATE STREAM "stop_after";\n`,
    );
    const run = await srctlBin("apply", "-f", file);
    expect(run.code).toBe(ExitCode.NOT_FOUND);
    expect(run.stdout).toBe("stream stop_s: created\n");
    expect(run.stderr).toMatch(
      new RegExp(
        `^${escape(file)}:3: CREATE BINDING "stop_s"\\n  error: NOT_FOUND at input\\.cluster: .*no_such_cluster`,
      ),
    );
    const after = await srctl("-e", 'SHOW STREAMS LIKE "stop%";');
    expect(after.stdout).not.toContain("stop_after");
  });

  it("with --continue runs everything, reports every failure, and exits with the first one's code", async () => {
    const file = await script(
      "continue.sql",
      `CREATE STREAM "cont_s";\nCREATE STREAM "cont_s";\nDESCRIBE BINDINGS "cont_missing";\nCREATE STREAM "cont_t";\n`,
    );
    const run = await srctl("apply", "-f", file, "--continue");
    expect(run.code).toBe(ExitCode.CONFLICT);
    expect(run.stdout).toBe("stream cont_s: created\nstream cont_t: created\n");
    expect(run.stderr).toContain(
      `${file}:2: CREATE STREAM "cont_s";\n  error: ALREADY_EXISTS at input.name:`,
    );
    expect(run.stderr).toContain(
      `${file}:3: DESCRIBE BINDINGS "cont_missing";\n  error: stream "cont_missing" does not exist`,
    );
  });

  it("maps not found, conflicts and in-use objects to their exit codes", async () => {
    expect((await srctl("-e", 'DESCRIBE STREAM "nf_s";')).code).toBe(ExitCode.NOT_FOUND);
    expect((await srctl("-e", 'DELETE BINDING "nf_s" FROM CLUSTER "nf_c";')).code).toBe(ExitCode.NOT_FOUND);
    const inUse = await srctl(
      "-e",
      'DECLARE CLUSTER "use_c"; CREATE STREAM "use_s"; CREATE BINDING "use_s" TO CLUSTER "use_c"; DELETE STREAM "use_s";',
    );
    expect(inUse.code).toBe(ExitCode.CONFLICT);
    expect(inUse.stderr).toContain("IN_USE");
    const invalid = await srctl("-e", 'CREATE STREAM "bad name!";');
    expect(invalid.code).toBe(ExitCode.BAD_INPUT);
    expect(invalid.stderr).toContain("INVALID_INPUT at input.name");
  });

  it("prints errors as JSON documents with --output json", async () => {
    const run = await srctl("--output", "json", "-e", 'CREATE STREAM "json_s";\nCREATE STREAM "json_s";');
    expect(run.code).toBe(ExitCode.CONFLICT);
    const docs = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(docs).toMatchObject([
      {
        statement: "CREATE STREAM",
        line: 1,
        ok: true,
        result: { type: "mutation", object: { kind: "stream", name: "json_s" } },
      },
      {
        statement: "CREATE STREAM",
        line: 2,
        ok: false,
        exitCode: ExitCode.CONFLICT,
        error: { code: "ALREADY_EXISTS" },
      },
    ]);
  });

  it("says which statements the registry does not support yet", async () => {
    const cases: [string, string][] = [
      [
        'REPLICATE BINDING "cluster001/widgets_v0" TO CLUSTER "cluster002";',
        "REPLICATE BINDING yet (no replicateBinding mutation)",
      ],
      ['SHOW REPLICATIONS ON CLUSTER "cluster001";', "SHOW REPLICATIONS yet (no replications query)"],
      [
        'CREATE STREAM RELOCATION "w" FROM CLUSTER "a" TO CLUSTER "b";',
        "CREATE STREAM RELOCATION yet (no createStreamRelocation mutation)",
      ],
    ];
    for (const [statement, expected] of cases) {
      const run = await srctl("-e", statement);
      expect(run.code, statement).toBe(ExitCode.UNSUPPORTED);
      expect(run.stderr, statement).toContain(
        `the registry at ${registry().url} does not support ${expected}`,
      );
    }
  });

  it("exits with the unavailable code when the registry cannot be reached", async () => {
    const port = await freePort();
    const run = await runSrctl(["-e", "SHOW NAMESPACE;"], {
      env: { SRCTL_REGISTRY: `http://127.0.0.1:${port}/graphql` },
    });
    expect(run.code).toBe(ExitCode.UNAVAILABLE);
    expect(run.stderr).toContain(
      `cannot reach the registry at http://127.0.0.1:${port}/graphql: ECONNREFUSED`,
    );
  });

  it("exits with the unavailable code when the connection drops in the middle of the response body", async () => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      response.write('{"data":');
      // Let the headers and the first bytes leave, then reset the connection mid-body.
      setTimeout(() => response.socket?.destroy(), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const run = await runMain(["--registry", `http://127.0.0.1:${port}/graphql`, "-e", "SHOW NAMESPACE;"]);
      expect(run.code).toBe(ExitCode.UNAVAILABLE);
      expect(run.stderr).toContain(`cannot reach the registry at http://127.0.0.1:${port}/graphql`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses bad arguments with the usage code", async () => {
    expect((await runMain(["--output", "yaml", "-e", "SHOW NAMESPACE;"])).code).toBe(ExitCode.BAD_INPUT);
    expect((await runMain(["--registry", "localhost:4000", "-e", "SHOW NAMESPACE;"])).code).toBe(
      ExitCode.BAD_INPUT,
    );
    const timeout = await srctl("--wait", "--timeout", "soon", "-e", "SHOW NAMESPACE;");
    expect(timeout.code).toBe(ExitCode.BAD_INPUT);
    expect(timeout.stderr).toContain('--timeout must be a duration like 90, 90s, 500ms or 2m, got "soon"');
    const missing = await srctl("apply", "-f", path.join(dir, "missing.sql"));
    expect(missing.code).toBe(ExitCode.BAD_INPUT);
    expect(missing.stderr).toContain("ENOENT");
  });

  it("reports argument errors as JSON on stdout with --output json", async () => {
    const run = await runMain(["--output", "json", "--bogus", "-e", "SHOW NAMESPACE;"]);
    expect(run.code).toBe(ExitCode.BAD_INPUT);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: false,
      exitCode: ExitCode.BAD_INPUT,
      error: { code: null, message: "unknown option '--bogus'" },
    });
    expect(run.stderr).toBe("error: unknown option '--bogus'\n");
    const text = await runMain(["--bogus"]);
    expect(text).toMatchObject({
      code: ExitCode.BAD_INPUT,
      stdout: "",
      stderr: "error: unknown option '--bogus'\n",
    });
  });

  it("lists the exit codes in --help", async () => {
    const help = await runSrctl(["--help"]);
    expect(help.code).toBe(ExitCode.OK);
    expect(help.stdout).toContain(
      "7  statement not supported by this registry yet (UNSUPPORTED, or its API differs from srctl's)",
    );
    expect(help.stdout).toContain("--registry <url>");
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

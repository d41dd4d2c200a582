import { getEventListeners } from "node:events";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { runRepl } from "../src/commands/repl.ts";
import type { Io } from "../src/io.ts";
import { Printer } from "../src/output/printer.ts";
import type { CliSession } from "../src/session.ts";
import { createSrctl, ExitCode } from "../src/index.ts";

const PROMPT = "srctl> ";
const CONTINUATION = "   ...> ";
const CTRL_C = "\x03";
const CTRL_D = "\x04";
const HINT = "(type exit or press Ctrl-D to leave)\n";
const CANCELLED = "cancelled (the registry may still apply a mutation already sent)\n";

const PENDING = {
  fqn: "/widgets@c1",
  isDefault: true,
  stream: { name: "widgets" },
  cluster: { name: "c1" },
  status: { phase: "PENDING", generation: 1, observedGeneration: 0, message: null },
};

interface StallingRegistry extends AsyncDisposable {
  url: string;
  /** Operation names in the order they arrived (SrctlShowNamespace, ...). */
  operations: string[];
  /** Resolves when the stalled request has arrived; it is not answered. */
  stalled: Promise<void>;
  /** Resolves when the client has closed the stalled request's connection. */
  dropped: Promise<void>;
  /** Answers a stalled introspection query after all (DESCRIBE STREAM "stall" stays unanswered). */
  release: () => void;
}

const INTROSPECTION = {
  __schema: {
    queryType: { fields: [{ name: "namespace" }, { name: "stream" }, { name: "binding" }] },
    mutationType: { fields: [{ name: "createBinding" }] },
  },
};

/**
 * A registry that answers SHOW NAMESPACE, keeps every binding PENDING, and never answers
 * `DESCRIBE STREAM "stall"`: only cancelling gets srctl past that one. With `stallIntrospection`,
 * the first introspection query waits for `release()` as well.
 */
async function startStallingRegistry(
  options: { stallIntrospection?: boolean } = {},
): Promise<StallingRegistry> {
  const operations: string[] = [];
  const stalled = signal();
  const dropped = signal();
  let stallIntrospection = options.stallIntrospection === true;
  let release = () => {};
  const server = createServer((req, res) => {
    void text(req).then((raw) => {
      const request = JSON.parse(raw) as { query: string; variables?: { name?: string } };
      operations.push(/^(?:query|mutation) (\w+)/.exec(request.query)?.[1] ?? request.query);
      const answer = (data: unknown) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data }));
      };
      const introspection = request.query.includes("__schema");
      const stall = introspection ? stallIntrospection : request.variables?.name === "stall";
      if (stall) {
        res.once("close", () => dropped.resolve());
        if (introspection) {
          stallIntrospection = false; // only the first one
          release = () => answer(INTROSPECTION);
        }
        stalled.resolve();
        return;
      }
      answer(
        introspection
          ? INTROSPECTION
          : {
              namespace: { path: "/" },
              binding: PENDING,
              createBinding: { binding: PENDING, userErrors: [] },
            },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    operations,
    stalled: stalled.promise,
    dropped: dropped.promise,
    release: () => release(),
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function signal() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve: () => resolve() };
}

/** A terminal for runRepl: keys go in through a TTY-like stdin, output is captured. */
function fakeTerminal(historyFile = "") {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const output = { stdout: "", stderr: "" };
  const watchers = new Set<() => void>();
  const written = (stream: "stdout" | "stderr") => (chunk: string) => {
    output[stream] += chunk;
    for (const watcher of watchers) watcher();
  };
  const io: Io = {
    stdout: written("stdout"),
    stderr: written("stderr"),
    stdin,
    stdoutIsTTY: true,
    env: { SRCTL_HISTORY: historyFile },
  };
  return {
    io,
    output,
    /** stdout without readline's cursor movements (ESC [ ... G, ESC [ 0 J). */
    // eslint-disable-next-line no-control-regex -- the escape character is what is matched
    screen: () => output.stdout.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ""),
    type: (keys: string) => stdin.write(keys),
    /** Resolves once `check` holds for the output so far (the test's timeout is the failure). */
    until: (check: () => boolean) =>
      new Promise<void>((resolve) => {
        const watcher = () => {
          if (!check()) return;
          watchers.delete(watcher);
          resolve();
        };
        watchers.add(watcher);
        watcher();
      }),
  };
}

function replSession(
  registry: string,
  io: Io,
  run: CliSession["run"] = { wait: false, continueOnError: false },
): CliSession {
  return {
    srctl: createSrctl({ registry }),
    printer: new Printer("table", io),
    io,
    run,
    format: "table",
  };
}

describe("Ctrl-C in the REPL at a terminal", () => {
  it("discards the statement being typed, and the next one runs alone", async () => {
    await using registry = await startStallingRegistry();
    const term = fakeTerminal();
    const repl = runRepl(replSession(registry.url, term.io));
    await term.until(() => term.screen().endsWith(PROMPT));

    term.type('DESCRIBE STREAM "stall"\n');
    await term.until(() => term.screen().endsWith(CONTINUATION));
    // A second, unfinished line of the statement is on the screen when Ctrl-C comes.
    term.type(`SHOW${CTRL_C}`);
    await term.until(() => term.screen().endsWith(PROMPT));

    term.type("SHOW NAMESPACE;\n");
    await term.until(() => term.screen().includes('"/"\n'));
    term.type(CTRL_D);
    expect(await repl).toBe(ExitCode.OK);

    expect(registry.operations).toEqual(["SrctlCapabilities", "SrctlShowNamespace"]);
    expect(term.output.stderr).not.toContain(HINT);
    expect(term.output.stderr).not.toContain("error");
  });

  it("does not end the session at an empty prompt, but says how to leave; Ctrl-D does", async () => {
    await using registry = await startStallingRegistry();
    const term = fakeTerminal();
    const repl = runRepl(replSession(registry.url, term.io));
    await term.until(() => term.screen().endsWith(PROMPT));
    const banner = term.output.stderr;

    term.type(CTRL_C);
    await term.until(() => term.output.stderr === banner + HINT);
    // Twice in a row is not a way out either (node's REPL would exit).
    term.type(CTRL_C);
    await term.until(() => term.output.stderr === banner + HINT + HINT);
    expect(term.screen().endsWith(PROMPT)).toBe(true);

    term.type("SHOW NAMESPACE;\n");
    await term.until(() => term.screen().includes('"/"\n'));
    term.type(CTRL_D);
    expect(await repl).toBe(ExitCode.OK);
  });

  it("cancels a request in flight, drops its connection, and the session goes on", async () => {
    await using registry = await startStallingRegistry();
    const term = fakeTerminal();
    const repl = runRepl(replSession(registry.url, term.io));
    await term.until(() => term.screen().endsWith(PROMPT));

    term.type('DESCRIBE STREAM "stall"; SHOW NAMESPACE;\n');
    await registry.stalled;
    term.type(CTRL_C);
    await term.until(() => term.output.stderr.endsWith(CANCELLED));
    await registry.dropped;
    await term.until(() => term.screen().endsWith(PROMPT));
    // The rest of the cancelled line did not run.
    expect(registry.operations).toEqual(["SrctlCapabilities", "SrctlDescribeStream"]);

    term.type("SHOW NAMESPACE;\n");
    await term.until(() => term.screen().includes('"/"\n'));
    term.type(CTRL_D);
    expect(await repl).toBe(ExitCode.OK);
    // The cancelled statement's failure is not reported on top of "cancelled".
    expect(term.output.stderr).not.toContain("error");
  });

  it("cancels a statement whose line was just written to the history", async () => {
    const history = path.join(await mkdtemp(path.join(tmpdir(), "srctl-ctrl-c-")), "history");
    await using registry = await startStallingRegistry();
    const term = fakeTerminal(history);
    const repl = runRepl(replSession(registry.url, term.io));
    await term.until(() => term.screen().endsWith(PROMPT));

    term.type('DESCRIBE STREAM "stall";\n');
    // Ctrl-C as the next key, while the history file is still being written.
    await new Promise((resolve) => setImmediate(resolve));
    term.type(CTRL_C);
    await term.until(() => term.output.stderr.endsWith(CANCELLED));

    term.type("SHOW\nNAMESPACE;\n");
    await term.until(() => term.screen().includes('"/"\n'));
    term.type(CTRL_D);
    expect(await repl).toBe(ExitCode.OK);
    expect(term.output.stderr).not.toContain(HINT);
    // Every line, in the order typed, is in the file by the time the session ends.
    expect(await readFile(history, "utf8")).toBe('DESCRIBE STREAM "stall";\nSHOW\nNAMESPACE;\n');
  });

  it("cancels --wait between polls", async () => {
    await using registry = await startStallingRegistry();
    const term = fakeTerminal();
    // A pause long enough that Ctrl-C lands in it rather than in a poll.
    const wait = {
      timeoutMs: 600_000,
      pollBaseMs: 60_000,
      pollMaxMs: 60_000,
      progress: (line: string) => term.io.stderr(`${line}\n`),
    };
    const repl = runRepl(replSession(registry.url, term.io, { wait, continueOnError: false }));
    await term.until(() => term.screen().endsWith(PROMPT));

    term.type('CREATE BINDING "widgets" TO CLUSTER "c1";\n');
    await term.until(() => term.output.stderr.includes("waiting for binding widgets on c1: PENDING"));
    term.type(CTRL_C);
    await term.until(() => term.output.stderr.endsWith(CANCELLED));

    term.type("SHOW NAMESPACE;\n");
    await term.until(() => term.screen().includes('"/"\n'));
    term.type(CTRL_D);
    expect(await repl).toBe(ExitCode.OK);
  });
});

describe("Srctl.runStatements with a signal", () => {
  it("fails the statement in flight as CANCELLED and starts no further one", async () => {
    await using registry = await startStallingRegistry();
    const srctl = createSrctl({ registry: registry.url });
    const cancel = new AbortController();
    const running = srctl.run('DESCRIBE STREAM "stall"; SHOW NAMESPACE;', { signal: cancel.signal });
    await registry.stalled;
    cancel.abort();
    const report = await running;
    expect(report.results).toHaveLength(1);
    expect(report.results[0]?.error).toMatchObject({ code: "CANCELLED", message: "cancelled" });
    expect(report.exitCode).toBe(ExitCode.CANCELLED);
    await registry.dropped;
  });

  it("fails the first statement as CANCELLED, unsent, when the signal was aborted before the run", async () => {
    await using registry = await startStallingRegistry();
    const srctl = createSrctl({ registry: registry.url });
    const report = await srctl.run("SHOW NAMESPACE; SHOW NAMESPACE;", { signal: AbortSignal.abort() });
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({
      statement: "SHOW NAMESPACE",
      ok: false,
      error: { code: "CANCELLED", exitCode: ExitCode.CANCELLED },
      exitCode: ExitCode.CANCELLED,
    });
    expect(report.exitCode).toBe(ExitCode.CANCELLED);
    expect(registry.operations).toEqual([]);
  });

  it("fails the next statement as CANCELLED when aborted between statements, even with continueOnError", async () => {
    await using registry = await startStallingRegistry();
    const srctl = createSrctl({ registry: registry.url });
    const cancel = new AbortController();
    const report = await srctl.run("SHOW NAMESPACE; SHOW NAMESPACE; SHOW NAMESPACE;", {
      signal: cancel.signal,
      continueOnError: true,
      onResult: () => cancel.abort(),
    });
    expect(report.results.map((r) => r.error?.code ?? "ok")).toEqual(["ok", "CANCELLED"]);
    expect(report.exitCode).toBe(ExitCode.CANCELLED);
    expect(registry.operations).toEqual(["SrctlCapabilities", "SrctlShowNamespace"]);
  });

  it("cancels a run waiting for the session's introspection, which other runs still share", async () => {
    await using registry = await startStallingRegistry({ stallIntrospection: true });
    const srctl = createSrctl({ registry: registry.url });
    const cancel = new AbortController();
    const running = srctl.run("SHOW NAMESPACE;", { signal: cancel.signal });
    await registry.stalled;
    cancel.abort();
    const report = await running;
    expect(report.results[0]?.error?.code).toBe("CANCELLED");
    expect(report.exitCode).toBe(ExitCode.CANCELLED);

    // The shared question was not withdrawn: its answer, when it comes, serves the next run.
    const next = srctl.run("SHOW NAMESPACE;");
    registry.release();
    expect((await next).exitCode).toBe(ExitCode.OK);
    expect(registry.operations).toEqual(["SrctlCapabilities", "SrctlShowNamespace"]);
  });

  it("leaves no abort listener behind on the run's signal", async () => {
    await using registry = await startStallingRegistry();
    const srctl = createSrctl({ registry: registry.url });
    const cancel = new AbortController();
    const report = await srctl.run("SHOW NAMESPACE; SHOW NAMESPACE; SHOW NAMESPACE;", {
      signal: cancel.signal,
    });
    expect(report.exitCode).toBe(ExitCode.OK);
    expect(getEventListeners(cancel.signal, "abort")).toEqual([]);
  });

  it("cancels the --wait pause between polls", async () => {
    await using registry = await startStallingRegistry();
    const srctl = createSrctl({ registry: registry.url });
    const cancel = new AbortController();
    const polled = signal();
    const running = srctl.run('CREATE BINDING "widgets" TO CLUSTER "c1";', {
      signal: cancel.signal,
      // Pauses far longer than the test's timeout: only the signal ends this one.
      wait: {
        pollBaseMs: 60_000,
        pollMaxMs: 60_000,
        timeoutMs: 120_000,
        // Said once a poll has come back PENDING, right before the pause.
        progress: () => polled.resolve(),
      },
    });
    await polled.promise;
    expect(registry.operations).toEqual(["SrctlCapabilities", "SrctlCreateBinding", "SrctlBinding"]);
    cancel.abort();
    const report = await running;
    expect(report.results).toHaveLength(1);
    expect(report.results[0]?.error).toMatchObject({ code: "CANCELLED", exitCode: ExitCode.CANCELLED });
    expect(report.exitCode).toBe(ExitCode.CANCELLED);
  });
});

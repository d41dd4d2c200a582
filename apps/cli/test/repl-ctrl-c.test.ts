import { createServer } from "node:http";
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
  /** Resolves when `DESCRIBE STREAM "stall"` has arrived; it is never answered. */
  stalled: Promise<void>;
  /** Resolves when the client has closed the stalled request's connection. */
  dropped: Promise<void>;
}

/**
 * A registry that answers SHOW NAMESPACE, keeps every binding PENDING, and never answers
 * `DESCRIBE STREAM "stall"`: only cancelling gets srctl past that one.
 */
async function startStallingRegistry(): Promise<StallingRegistry> {
  const operations: string[] = [];
  const stalled = signal();
  const dropped = signal();
  const server = createServer((req, res) => {
    void text(req).then((raw) => {
      const request = JSON.parse(raw) as { query: string; variables?: { name?: string } };
      operations.push(/^(?:query|mutation) (\w+)/.exec(request.query)?.[1] ?? request.query);
      if (request.variables?.name === "stall") {
        res.once("close", () => dropped.resolve());
        stalled.resolve();
        return;
      }
      const data = request.query.includes("__schema")
        ? {
            __schema: {
              queryType: { fields: [{ name: "namespace" }, { name: "stream" }, { name: "binding" }] },
              mutationType: { fields: [{ name: "createBinding" }] },
            },
          }
        : {
            namespace: { path: "/" },
            binding: PENDING,
            createBinding: { binding: PENDING, userErrors: [] },
          };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    operations,
    stalled: stalled.promise,
    dropped: dropped.promise,
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
function fakeTerminal() {
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
    env: { SRCTL_HISTORY: "" },
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
});

import { once } from "node:events";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import type { Statement } from "@stream-registry/ddl";
import { ScriptSyntaxError } from "../errors.ts";
import { combineExitCodes, ExitCode } from "../exit-codes.ts";
import { Printer } from "../output/printer.ts";
import type { CliSession } from "../session.ts";
import { mayHoldSecret } from "../secrets.ts";
import type { Srctl } from "../srctl.ts";

const PROMPT = "srctl> ";
const CONTINUATION = "   ...> ";
const HISTORY_SIZE = 1000;
const CANCELLED = "cancelled (the registry may still apply a mutation already sent)\n";

/**
 * The interactive shell: statements may span lines and run when a line ends with `;`; errors are
 * printed and the shell goes on. On a terminal, input lines are kept in a history file across
 * sessions, except the lines of a statement that holds a secret (WITH TOKEN). Piped input gets no
 * prompts and no history (it may hold credentials), and the exit code is that of the first
 * failure, as with `apply`. Ctrl-C at a terminal works as in psql: it discards
 * the statement being typed, or cancels the one running, and the session goes on.
 */
export async function runRepl(session: CliSession): Promise<number> {
  const { srctl, io, run } = session;
  const printer = new Printer(
    session.format,
    { stdout: io.stdout, stderr: io.stderr },
    { withLocation: false },
  );
  const stdinIsTTY = io.stdin.isTTY === true;
  const interactive = stdinIsTTY && io.stdoutIsTTY === true;
  const historyFile = stdinIsTTY ? historyPath(io.env) : undefined;
  const rl = createInterface({
    input: io.stdin,
    // Prompts and line editing go through the session's stdout, and only to a terminal.
    output: interactive ? textWritable(io.stdout) : undefined,
    terminal: interactive,
    history: historyFile ? await loadHistory(historyFile) : [],
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  let exitCode: ExitCode = ExitCode.OK;
  const record = (code: ExitCode) => {
    exitCode = combineExitCodes(exitCode, code);
  };
  let buffer = "";
  let running: AbortController | undefined;
  let historyWrites = Promise.resolve();
  // readline emits SIGINT only in terminal mode, i.e. when interactive.
  rl.on("SIGINT", () => {
    if (running) {
      running.abort();
      return;
    }
    const typing = buffer !== "" || rl.line !== "";
    endLine(rl);
    buffer = "";
    if (!typing) io.stderr("(type exit or press Ctrl-D to leave)\n");
    rl.setPrompt(PROMPT);
    rl.prompt();
  });
  try {
    if (interactive) {
      io.stderr(
        `srctl: registry ${srctl.registry}. Statements end with ";". Type exit or press Ctrl-D to leave.\n`,
      );
    }
    const prompt = () => {
      if (!interactive) return;
      rl.setPrompt(buffer ? CONTINUATION : PROMPT);
      rl.prompt();
    };
    prompt();
    for await (const input of rl) {
      if (historyFile && input.trim() && !mayHoldSecret(buffer + input)) {
        // Chained, not awaited: from a line's arrival to `running` being set must stay synchronous,
        // or a Ctrl-C in between would count as typing, empty the buffer and leave a fragment to run.
        historyWrites = historyWrites.then(() => appendFile(historyFile, `${input}\n`)).catch(() => {});
      }
      if (!buffer && /^\s*(exit|quit|\\q)\s*;?\s*$/i.test(input)) break;
      buffer += `${input}\n`;
      if (input.trimEnd().endsWith(";")) {
        const text = buffer;
        const statements = parseComplete(srctl, text, printer);
        if (statements !== "incomplete") {
          buffer = "";
          if (statements === "syntax-error") {
            record(ExitCode.BAD_INPUT);
          } else if (statements.length > 0) {
            const cancel = new AbortController();
            running = cancel;
            const report = await Promise.race([
              srctl.runStatements(statements, text, {
                ...run,
                fileName: "<repl>",
                continueOnError: false,
                signal: cancel.signal,
                // A cancelled run may still finish a statement; the person has moved on.
                onResult: (r) => {
                  if (!cancel.signal.aborted) printer.result(r);
                },
              }),
              // Back to the prompt at once, even from a --wait pause between polls.
              once(cancel.signal, "abort").then(() => "cancelled" as const),
            ]);
            running = undefined;
            if (report === "cancelled") io.stderr(CANCELLED);
            else record(report.exitCode);
          }
        }
      } else if (!buffer.trim()) {
        buffer = "";
      }
      prompt();
    }
  } finally {
    rl.close();
    await historyWrites;
  }
  if (buffer.trim()) {
    io.stderr(`error: unfinished statement discarded (statements end with ";")\n`);
    record(ExitCode.BAD_INPUT);
  }
  // At a terminal the person saw each error as it happened; a script needs the outcome.
  return stdinIsTTY ? ExitCode.OK : exitCode;
}

/**
 * Moves to a fresh line and forgets what was typed on the current one, as node:repl does on Ctrl-C;
 * readline has no public way to empty its line.
 */
function endLine(rl: Interface): void {
  (rl as Interface & { clearLine(): void }).clearLine();
}

function textWritable(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      write(chunk.toString());
      callback();
    },
  });
}

/** The statements of `text`, "incomplete" when it stops mid-statement, "syntax-error" once one is printed. */
function parseComplete(
  srctl: Srctl,
  text: string,
  printer: Printer,
): Statement[] | "incomplete" | "syntax-error" {
  try {
    return srctl.parse(text, "<repl>");
  } catch (error) {
    if (!(error instanceof ScriptSyntaxError)) throw error;
    // A `;` inside a config block or a string ends the line but not the statement.
    if (error.atEnd) return "incomplete";
    printer.failure(error);
    return "syntax-error";
  }
}

function historyPath(env: NodeJS.ProcessEnv): string | undefined {
  const configured = env.SRCTL_HISTORY;
  if (configured === "") return undefined;
  return configured ?? path.join(homedir(), ".srctl_history");
}

async function loadHistory(file: string): Promise<string[]> {
  try {
    const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
    // The file is appended to line by line; keep it from growing without bound.
    if (lines.length > 2 * HISTORY_SIZE) await writeFile(file, `${lines.slice(-HISTORY_SIZE).join("\n")}\n`);
    // readline wants the newest entry first.
    return lines.slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

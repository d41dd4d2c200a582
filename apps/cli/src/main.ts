import { checkNamespacePath } from "@stream-registry/core";
import { Command, CommanderError, Option } from "commander";
import { applyFiles } from "./commands/apply.ts";
import { runInline } from "./commands/inline.ts";
import { runRepl } from "./commands/repl.ts";
import { CONSISTENCIES, DEFAULT_CONSISTENCY, parseConsistency } from "./consistency.ts";
import { parseDuration } from "./duration.ts";
import { asSrctlError, UsageError } from "./errors.ts";
import { ExitCode, exitCodeHelp } from "./exit-codes.ts";
import { processIo, type Io } from "./io.ts";
import { Printer, type OutputFormat } from "./output/printer.ts";
import type { CliSession } from "./session.ts";
import { createSrctl, DEFAULT_REGISTRY, DEFAULT_WAIT_TIMEOUT_MS } from "./srctl.ts";

interface GlobalOptions {
  registry?: string;
  namespace?: string;
  execute?: string;
  output: OutputFormat;
  wait?: boolean;
  timeout?: string;
  continue?: boolean;
  token?: string;
  actor?: string;
  consistency?: string;
}

const examples = `
Examples:
  srctl --registry http://localhost:4000/graphql            open a REPL
  srctl apply -f streams.sql --wait                         run a file, wait until bindings are ONLINE
  srctl -e 'SHOW NAMESPACE;' --output json                  run statements given inline
  srctl -n /aws/us-reg1-xyz -e 'SHOW STREAMS;'              the streams of /aws/us-reg1-xyz and below it
  srctl --consistency live -e 'SHOW STREAMS;'               ask every child registry now, not the index

Statements (the seed's DDL; all of them in docs/ddl.md):
  DECLARE CLUSTER "c" [WITH PROVIDER "kafka"] [WITH CONFIG {...}]
      what it leaves out keeps the cluster's (a new cluster: the registry's preset, else registry-only)
  UPDATE STREAM "s" WITH CONFIG { "acme.kafka": {...} }
      each map given replaces that map, maps not named stay, "map": null removes one;
      PRODUCER/CONSUMER CONFIG, UPDATE BINDING and DECLARE CLUSTER's CONFIG work alike

Environment:
  SRCTL_REGISTRY    default for --registry (else ${DEFAULT_REGISTRY})
  SRCTL_NAMESPACE   default for --namespace (else the registry's own; lists: its whole subtree)
  SRCTL_TOKEN       default for --token (the registry's first start prints an admin token)
  SRCTL_CONSISTENCY default for --consistency (else ${DEFAULT_CONSISTENCY})
  SRCTL_HISTORY     REPL history file (default ~/.srctl_history; empty: no history)

${exitCodeHelp}
`;

/** Runs srctl with `argv` (without node and the script) and returns the exit code. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  let exitCode: number = ExitCode.OK;
  // Commander may fail before it has parsed --output, so the format is read from argv directly.
  const jsonRequested = requestsJson(argv);
  const program = new Command("srctl")
    .description("The Stream Registry's DDL: a REPL, `apply -f` for scripts, `-e` for one-liners.")
    .option("-r, --registry <url>", "the registry's GraphQL endpoint")
    .option(
      "-n, --namespace <path>",
      "the absolute namespace statements apply to (/aws/us-reg1-xyz); lists show it and below",
    )
    .option("-e, --execute <statements>", "run these statements and exit")
    .addOption(
      new Option("-o, --output <format>", "how results are printed")
        .choices(["table", "json"])
        .default("table"),
    )
    .option("-w, --wait", "wait until bindings settle (ONLINE, or gone when deleted); FAILED is an error")
    .option(
      "-t, --timeout <duration>",
      `how long --wait waits (90, 90s, 2m) (default: ${DEFAULT_WAIT_TIMEOUT_MS / 1000}s)`,
    )
    .option("-c, --continue", "keep going after a failing statement, report all, exit non-zero")
    .option(
      "--token <token>",
      "the API token (srt_...) or OIDC JWT to authenticate with; the change log names who it is",
    )
    // Kept so that old scripts still parse; the registry names the token's principal instead.
    .addOption(new Option("--actor <name>", "ignored: the token says who is asking").hideHelp())
    .option(
      "--consistency <mode>",
      `where lists come from: ${CONSISTENCIES.join(" (the registry's index of its children) or ")} (every child asked now) (default: ${DEFAULT_CONSISTENCY})`,
    )
    .addHelpText("after", examples)
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // In JSON mode the catch below reports the error once, as JSON on stdout and text on stderr.
      outputError: (text, write) => {
        if (!jsonRequested) write(text);
      },
    });

  program
    .command("apply")
    .description("run the statements of one or more files (all are parsed before anything runs)")
    .requiredOption("-f, --file <path...>", "a file of statements; - reads standard input")
    .action(async (options: { file: string[] }, command: Command) => {
      exitCode = await withSession(command.optsWithGlobals<GlobalOptions>(), io, (session) =>
        applyFiles(session, options.file),
      );
    });

  program.action(async (options: GlobalOptions) => {
    exitCode = await withSession(options, io, (session) =>
      options.execute !== undefined ? runInline(session, options.execute) : runRepl(session),
    );
  });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; unknown options and bad values with 1.
      if (error.exitCode === 0) return ExitCode.OK;
      if (jsonRequested) {
        new Printer("json", { stdout: io.stdout, stderr: io.stderr }).failure(
          new UsageError(error.message.replace(/^error: /, "")),
        );
      }
      return ExitCode.BAD_INPUT;
    }
    throw error;
  }
  return exitCode;
}

function requestsJson(argv: string[]): boolean {
  return argv.some(
    (arg, i) =>
      arg === "--output=json" ||
      arg === "-ojson" ||
      ((arg === "-o" || arg === "--output") && argv[i + 1] === "json"),
  );
}

async function withSession(
  options: GlobalOptions,
  io: Io,
  body: (session: CliSession) => Promise<number>,
): Promise<number> {
  const printer = new Printer(options.output, { stdout: io.stdout, stderr: io.stderr });
  try {
    const registry = options.registry ?? (io.env.SRCTL_REGISTRY || DEFAULT_REGISTRY);
    if (!/^https?:\/\//.test(registry)) {
      throw new UsageError(
        `--registry must be an http(s) URL such as ${DEFAULT_REGISTRY}, got "${registry}"`,
      );
    }
    const namespace = options.namespace ?? (io.env.SRCTL_NAMESPACE || undefined);
    if (namespace !== undefined) checkNamespaceOption(namespace);
    const timeoutMs = options.timeout ? parseDuration(options.timeout, "--timeout") : DEFAULT_WAIT_TIMEOUT_MS;
    const token = options.token ?? (io.env.SRCTL_TOKEN || undefined);
    if (options.actor !== undefined || io.env.SRCTL_ACTOR) {
      io.stderr(
        "srctl: --actor and SRCTL_ACTOR are ignored: the registry names who made a change after the token (--token, SRCTL_TOKEN)\n",
      );
    }
    const consistency =
      options.consistency !== undefined
        ? parseConsistency(options.consistency, "--consistency")
        : io.env.SRCTL_CONSISTENCY
          ? parseConsistency(io.env.SRCTL_CONSISTENCY, "SRCTL_CONSISTENCY")
          : DEFAULT_CONSISTENCY;
    const srctl = createSrctl({
      registry,
      consistency,
      ...(namespace ? { namespace } : {}),
      ...(token ? { token } : {}),
    });
    const wait = options.wait ? { timeoutMs, progress: (line: string) => io.stderr(`${line}\n`) } : false;
    return await body({
      srctl,
      printer,
      io,
      format: options.output,
      run: { wait, continueOnError: options.continue ?? false },
    });
  } catch (thrown) {
    const error = asSrctlError(thrown);
    printer.failure(error);
    return error.exitCode;
  }
}

/** A namespace is absolute ("/aws/us-reg1-xyz"), as the registry's paths are; refused before any request. */
function checkNamespaceOption(namespace: string): void {
  const invalid = checkNamespacePath(namespace, ["namespace"]);
  if (invalid) {
    throw new UsageError(`--namespace: ${invalid.message} (an absolute path, e.g. /aws/us-reg1-xyz)`);
  }
}

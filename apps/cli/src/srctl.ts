import path from "node:path";
import { DdlSyntaxError, parse, type Statement } from "@stream-registry/ddl";
import { Capabilities } from "./client/capabilities.ts";
import { GraphQLClient, type FetchLike } from "./client/graphql-client.ts";
import { DEFAULT_CONSISTENCY, type Consistency } from "./consistency.ts";
import { asSrctlError, CancelledError, ScriptSyntaxError, type SrctlError } from "./errors.ts";
import { combineExitCodes, ExitCode } from "./exit-codes.ts";
import type { StatementResult, StatementSource } from "./output/result.ts";
import { shownText } from "./secrets.ts";
import type { StatementContext, WaitOptions } from "./statements/context.ts";
import { isPartial } from "./statements/index-lag.ts";
import { statementName, translate } from "./statements/translations.ts";

export const DEFAULT_REGISTRY = "http://localhost:4000/graphql";
export const DEFAULT_WAIT_TIMEOUT_MS = 120_000;

export interface SrctlOptions {
  /** The registry's GraphQL endpoint. */
  registry: string;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /**
   * The API token (or OIDC JWT) srctl authenticates with, sent as `Authorization: Bearer <token>`:
   * the registry names its principal in the change log.
   */
  token?: string;
  /** Extra headers on every request (a proxy's, a tracing header). */
  headers?: Record<string, string>;
  /** How long one request may take; default 30 s. */
  requestTimeoutMs?: number;
  /**
   * The absolute namespace statements apply to, e.g. "/aws/us-reg1-xyz": the registry forwards
   * mutations and look-ups to the child registry that owns it, and lists only it and those below
   * it. Default: the registry's own namespace for mutations and look-ups, its whole subtree for lists.
   */
  namespace?: string;
  /**
   * Where a registry with child registries answers lists (SHOW STREAMS, SHOW CLUSTERS, DESCRIBE
   * BINDINGS) from: "index" (default), its discovery index, a little behind its children (a
   * namespace it is far behind comes back as an INDEX_LAG warning); "live", every child asked now
   * (one that cannot be reached is a CHILD_UNAVAILABLE warning, a partial result).
   */
  consistency?: Consistency;
}

export interface RunOptions {
  /** Names the text in messages (`widgets.sql:3:14`); default `<input>`. */
  fileName?: string;
  /** Where `FILE x.avsc` is looked up; default the directory of fileName, else the working directory. */
  baseDir?: string;
  /** Wait until asynchronous work settles (ONLINE, or gone for deletions). */
  wait?: boolean | Partial<WaitOptions>;
  /** Run the remaining statements after a failure (the report still fails). */
  continueOnError?: boolean;
  /** Called as each statement finishes, before the next starts. */
  onResult?: (result: StatementResult) => void;
  /**
   * Cancels the run: a request in flight is aborted, its statement fails as CANCELLED and no
   * further statement starts (aborted between statements, the next one fails as CANCELLED unsent).
   * The registry may still apply a mutation it had already received.
   */
  signal?: AbortSignal;
}

export interface RunReport {
  results: StatementResult[];
  /** The first failure's exit code; PARTIAL when everything ran but some data was incomplete. */
  exitCode: ExitCode;
}

/** srctl as a library: parse DDL text and carry it out against one registry. */
export class Srctl {
  readonly registry: string;
  readonly namespace: string | undefined;
  readonly consistency: Consistency;
  readonly #client: GraphQLClient;
  readonly #capabilities: Capabilities;

  constructor(options: SrctlOptions) {
    this.registry = options.registry;
    this.namespace = options.namespace;
    this.consistency = options.consistency ?? DEFAULT_CONSISTENCY;
    this.#client = new GraphQLClient({
      url: options.registry,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.headers || options.token
        ? {
            headers: {
              ...options.headers,
              ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            },
          }
        : {}),
      ...(options.requestTimeoutMs ? { timeoutMs: options.requestTimeoutMs } : {}),
    });
    this.#capabilities = new Capabilities(this.#client);
  }

  /** Parses a whole script; throws ScriptSyntaxError (naming file:line:col) and runs nothing. */
  parse(text: string, fileName = "<input>"): Statement[] {
    try {
      return parse(text, { fileName });
    } catch (error) {
      if (error instanceof DdlSyntaxError) {
        throw new ScriptSyntaxError(
          error.fileName ?? fileName,
          error.line,
          error.column,
          error.message,
          error.incomplete,
        );
      }
      throw error;
    }
  }

  /** Parses `text`, then runs its statements in order, stopping at the first failure unless told not to. */
  async run(text: string, options: RunOptions = {}): Promise<RunReport> {
    const fileName = options.fileName ?? "<input>";
    return this.runStatements(this.parse(text, fileName), text, options);
  }

  async runStatements(statements: Statement[], text: string, options: RunOptions = {}): Promise<RunReport> {
    const fileName = options.fileName ?? "<input>";
    const context: StatementContext = {
      client: this.#client.withSignal(options.signal),
      capabilities: this.#capabilities.forRun(options.signal),
      baseDir:
        options.baseDir ?? (options.fileName ? path.dirname(path.resolve(options.fileName)) : process.cwd()),
      wait: waitOptions(options.wait, options.signal),
      namespace: this.namespace,
      consistency: this.consistency,
    };
    const results: StatementResult[] = [];
    for (const statement of statements) {
      const source = sourceOf(statement, text, fileName);
      // A statement skipped because of the abort fails, so the report never reads OK for a cut-short run.
      const skipped = options.signal?.aborted === true;
      const result = skipped
        ? failed(statementName(statement.kind), source, new CancelledError())
        : await this.#runOne(statement, source, context);
      results.push(result);
      options.onResult?.(result);
      if (skipped || (!result.ok && !options.continueOnError)) break;
    }
    return { results, exitCode: overallExitCode(results) };
  }

  async #runOne(
    statement: Statement,
    source: StatementSource,
    context: StatementContext,
  ): Promise<StatementResult> {
    const name = statementName(statement.kind);
    try {
      const { output, warnings } = await translate(statement, context);
      // An index behind a namespace is said, but the answer is whole: only missing data is PARTIAL.
      const exitCode = warnings.some(isPartial) ? ExitCode.PARTIAL : ExitCode.OK;
      return { statement: name, source, ok: true, output, warnings, exitCode };
    } catch (thrown) {
      return failed(name, source, asSrctlError(thrown));
    }
  }
}

function failed(statement: string, source: StatementSource, error: SrctlError): StatementResult {
  return {
    statement,
    source,
    ok: false,
    warnings: [],
    error: { message: error.message, code: error.code, exitCode: error.exitCode },
    exitCode: error.exitCode,
  };
}

export function createSrctl(options: SrctlOptions): Srctl {
  return new Srctl(options);
}

function waitOptions(wait: RunOptions["wait"], signal: AbortSignal | undefined): WaitOptions | undefined {
  if (!wait) return undefined;
  const given = wait === true ? {} : wait;
  return { timeoutMs: DEFAULT_WAIT_TIMEOUT_MS, progress: () => {}, ...given, signal };
}

function sourceOf(statement: Statement, text: string, file: string): StatementSource {
  const written = shownText(statement, text.slice(statement.span.offset, statement.span.endOffset));
  return {
    file,
    line: statement.span.line,
    column: statement.span.column,
    text: (written.split("\n")[0] ?? "").trim(),
  };
}

function overallExitCode(results: StatementResult[]): ExitCode {
  return results.reduce<ExitCode>((code, result) => combineExitCodes(code, result.exitCode), ExitCode.OK);
}

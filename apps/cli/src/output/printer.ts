import { ScriptSyntaxError, type SrctlError } from "../errors.ts";
import type { StatementOutput, StatementResult } from "./result.ts";
import { renderTable } from "./table.ts";

export type OutputFormat = "table" | "json";

export interface Streams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * Prints statement results as the seed shows them (tables, `"/"`, one-line confirmations), or as
 * one JSON document per line. Data goes to stdout; warnings, errors and progress to stderr.
 */
export class Printer {
  readonly #format: OutputFormat;
  readonly #streams: Streams;
  /** Locations help in scripts; in the REPL the statement was just typed. */
  readonly #withLocation: boolean;
  #previous: StatementOutput["type"] | undefined;

  constructor(format: OutputFormat, streams: Streams, options: { withLocation?: boolean } = {}) {
    this.#format = format;
    this.#streams = streams;
    this.#withLocation = options.withLocation ?? true;
  }

  result(result: StatementResult): void {
    if (this.#format === "json") {
      this.#streams.stdout(`${JSON.stringify(toJson(result))}\n`);
      if (result.error) this.#streams.stderr(this.#failureText(result));
      return;
    }
    if (result.output) this.#stdout(result.output);
    for (const w of result.warnings) {
      this.#streams.stderr(
        `warning: ${w.code}${w.namespace ? ` (namespace ${w.namespace})` : ""}: ${w.message}\n`,
      );
    }
    if (result.error) this.#streams.stderr(this.#failureText(result));
  }

  /** A failure outside any statement: usage, syntax, an unreachable registry at start-up. */
  failure(error: SrctlError): void {
    if (this.#format === "json") {
      this.#streams.stdout(
        `${JSON.stringify({ ok: false, exitCode: error.exitCode, error: { code: error.code ?? null, message: error.message } })}\n`,
      );
    }
    // A syntax error already starts with file:line:col, as compilers print them.
    const prefix = error instanceof ScriptSyntaxError ? "" : "error: ";
    this.#streams.stderr(`${prefix}${error.message}\n`);
  }

  #stdout(output: StatementOutput): void {
    const text = renderText(output);
    // A blank line between a table and what comes before or after it keeps them apart.
    const gap = this.#previous && (output.type === "table" || this.#previous === "table") ? "\n" : "";
    this.#streams.stdout(`${gap}${text}\n`);
    this.#previous = output.type;
  }

  #failureText(result: StatementResult): string {
    const message = (result.error?.message ?? "").split("\n").join("\n  ");
    if (!this.#withLocation) return `error: ${message}\n`;
    const { file, line, text } = result.source;
    return `${file}:${line}: ${text}\n  error: ${message}\n`;
  }
}

export function renderText(output: StatementOutput): string {
  switch (output.type) {
    case "table": {
      const tables = [output, ...(output.more ?? [])].map((t) =>
        renderTable(t.columns, t.rows, output.style),
      );
      const table = tables.join("\n\n");
      return output.caption === undefined ? table : `${output.caption}\n\n${table}`;
    }
    case "value":
      return output.text;
    case "mutation":
      return output.message;
  }
}

/** The stable JSON shape of a statement's result (docs/cli.md). */
export function toJson(result: StatementResult): Record<string, unknown> {
  return {
    statement: result.statement,
    file: result.source.file,
    line: result.source.line,
    column: result.source.column,
    ok: result.ok,
    exitCode: result.exitCode,
    ...(result.output ? { result: jsonOutput(result.output) } : {}),
    warnings: result.warnings,
    ...(result.error ? { error: { code: result.error.code ?? null, message: result.error.message } } : {}),
  };
}

function jsonOutput(output: StatementOutput): Record<string, unknown> {
  switch (output.type) {
    case "table":
      return {
        type: "table",
        ...output.data,
        columns: output.columns.map((c) => c.key),
        rows: output.rows,
        ...(output.more
          ? { more: output.more.map((t) => ({ columns: t.columns.map((c) => c.key), rows: t.rows })) }
          : {}),
      };
    case "value":
      return { type: "value", value: output.data };
    case "mutation":
      return { type: "mutation", message: output.message, object: output.object };
  }
}

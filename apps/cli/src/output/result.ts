import type { ExitCode } from "../exit-codes.ts";
import type { Warning } from "../client/execute.ts";
import type { Column, TableStyle } from "./table.ts";

/** What a statement produced, before it is printed as text or JSON. */
export type StatementOutput =
  | {
      type: "table";
      columns: Column[];
      rows: Record<string, unknown>[];
      style?: TableStyle;
      /** A line above the table, for what belongs to the whole table rather than a row. */
      caption?: string;
      /** The caption's facts for --output json, beside the rows. */
      data?: Record<string, unknown>;
      /** Tables printed after this one, e.g. DESCRIBE STREAM's schema subjects after its config. */
      more?: { columns: Column[]; rows: Record<string, unknown>[] }[];
    }
  | { type: "value"; text: string; data: Record<string, unknown> }
  | { type: "mutation"; message: string; object: Record<string, unknown> };

/** Where a statement was written: 1-based, and its first line of text for messages. */
export interface StatementSource {
  file: string;
  line: number;
  column: number;
  text: string;
}

export interface StatementError {
  message: string;
  code: string | undefined;
  exitCode: ExitCode;
}

/** The outcome of one statement, as the library returns it and --output json prints it. */
export interface StatementResult {
  /** The statement as users know it, e.g. "CREATE BINDING". */
  statement: string;
  source: StatementSource;
  ok: boolean;
  output?: StatementOutput;
  /** Errors beside usable data (a partial result). */
  warnings: Warning[];
  error?: StatementError;
  exitCode: ExitCode;
}

import type { Io } from "./io.ts";
import type { OutputFormat, Printer } from "./output/printer.ts";
import type { RunOptions, Srctl } from "./srctl.ts";

/** What every CLI mode (REPL, apply, -e) needs: the library session, the printer, how to run. */
export interface CliSession {
  srctl: Srctl;
  printer: Printer;
  io: Io;
  run: Pick<RunOptions, "wait" | "continueOnError">;
  format: OutputFormat;
}

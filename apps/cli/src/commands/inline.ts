import type { CliSession } from "../session.ts";

/** `srctl -e '...'`: the statements run like a script named "-e". */
export async function runInline(session: CliSession, text: string): Promise<number> {
  const { srctl, printer, run } = session;
  const statements = srctl.parse(text, "-e");
  const report = await srctl.runStatements(statements, text, {
    ...run,
    fileName: "-e",
    baseDir: process.cwd(),
    onResult: (result) => printer.result(result),
  });
  return report.exitCode;
}

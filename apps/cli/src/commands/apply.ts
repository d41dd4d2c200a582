import { readFile } from "node:fs/promises";
import path from "node:path";
import { text as readStream } from "node:stream/consumers";
import type { Statement } from "@stream-registry/ddl";
import { InputError } from "../errors.ts";
import { combineExitCodes, ExitCode } from "../exit-codes.ts";
import type { CliSession } from "../session.ts";

interface Script {
  fileName: string;
  baseDir: string;
  text: string;
  statements: Statement[];
}

/**
 * `srctl apply -f a.sql [-f b.sql]`: every file is read and parsed before the first statement runs,
 * so a syntax error anywhere changes nothing. Stops at the first failure unless --continue.
 */
export async function applyFiles(session: CliSession, files: string[]): Promise<number> {
  const { srctl, printer, run, io } = session;
  const scripts: Script[] = [];
  for (const file of files) {
    const text = file === "-" ? await readStream(io.stdin) : await readScript(file);
    const fileName = file === "-" ? "<stdin>" : file;
    const baseDir = file === "-" ? process.cwd() : path.dirname(path.resolve(file));
    scripts.push({ fileName, baseDir, text, statements: srctl.parse(text, fileName) });
  }
  let exitCode: ExitCode = ExitCode.OK;
  for (const script of scripts) {
    const report = await srctl.runStatements(script.statements, script.text, {
      ...run,
      fileName: script.fileName,
      baseDir: script.baseDir,
      onResult: (result) => printer.result(result),
    });
    exitCode = combineExitCodes(exitCode, report.exitCode);
    const failed = report.results.some((r) => !r.ok);
    if (failed && !run.continueOnError) break;
  }
  return exitCode;
}

async function readScript(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

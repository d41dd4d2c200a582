import type { Readable } from "node:stream";

/** What the CLI touches of its process; tests and embedders may pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: Readable & { isTTY?: boolean };
  /** Whether stdout is a terminal; the REPL prompts only when both ends are. */
  stdoutIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin,
  stdoutIsTTY: process.stdout.isTTY === true,
  env: process.env,
};

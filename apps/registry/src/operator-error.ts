import { DataDirInUseError } from "@stream-registry/store";

/**
 * A failure the operator fixes with a setting (a port or data directory in use, a bad
 * variable). main.ts says it in one plain line on stderr: a stack trace in a JSON log line would
 * only hide it.
 */
export class OperatorError extends Error {
  override name = "OperatorError";
}

/** The plain message of an error the operator fixes; undefined for a fault (logged with its stack). */
export function refusalMessage(error: unknown): string | undefined {
  return error instanceof OperatorError || error instanceof DataDirInUseError ? error.message : undefined;
}

/** Why the HTTP server could not listen, in the settings' words (PORT, HOST). */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return new OperatorError(`${where} is in use by another process: stop it, or set PORT to a free port`);
    case "EACCES":
      return new OperatorError(
        `${where} may not be opened by this user (ports below 1024 need privileges): set PORT`,
      );
    case "EADDRNOTAVAIL":
      return new OperatorError(`HOST ${host} is not an address of this machine: set HOST`);
    default:
      return error;
  }
}

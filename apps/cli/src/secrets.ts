import type { Statement } from "@stream-registry/ddl";
import { print } from "@stream-registry/ddl";
import { asSrctlError, SrctlError } from "./errors.ts";

/** What stands for a secret wherever srctl shows a statement. */
export const REDACTED = "<redacted>";

/**
 * A statement's text as srctl may show it (in error locations, the REPL's messages): as written,
 * except a statement holding a secret, which is printed anew with the secret replaced.
 */
export function shownText(statement: Statement, written: string): string {
  if (statement.kind !== "declareParentRegistry") return written;
  return print({ ...statement, token: REDACTED });
}

/** `error` with every occurrence of `secret` in its message replaced. */
export function withoutSecret(error: unknown, secret: string): SrctlError {
  const failure = asSrctlError(error);
  if (!failure.message.includes(secret)) return failure;
  return new SrctlError(failure.message.replaceAll(secret, REDACTED), failure.exitCode, failure.code);
}

/**
 * Whether a line typed into the REPL (with the unfinished statement before it) may hold a secret,
 * and so stays out of the history file. A token may follow WITH TOKEN on a later line, hence the
 * whole statement so far.
 */
export function mayHoldSecret(statementSoFar: string): boolean {
  return /\bTOKEN\b/i.test(statementSoFar);
}

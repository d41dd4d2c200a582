import { ErrorCode, RegistryError } from "./errors.ts";
import { isPlainObject } from "./plain-object.ts";
import { quote } from "./quote.ts";
import { textProblem } from "./text.ts";

export type CursorValue = Record<string, string | number>;

// Keyset cursors hold a few names of at most 249 characters; anything far longer is not ours.
const MAX_CURSOR_LENGTH = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Opaque to clients: base64url so it survives URLs and nobody is tempted to edit it. */
export function encodeCursor(value: CursorValue): string {
  for (const [key, entry] of Object.entries(value)) {
    // JSON would turn these into null, producing a cursor that decodeCursor rejects.
    if (typeof entry === "number" && !Number.isFinite(entry)) {
      throw new RangeError(`cursor value ${JSON.stringify(key)} must be a finite number, got ${entry}`);
    }
  }
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string, field?: string[]): CursorValue {
  const fail = (reason: string): RegistryError =>
    new RegistryError(
      ErrorCode.INVALID_INPUT,
      `cursor ${quote(cursor)} is not valid: ${reason}`,
      field ?? ["after"],
    );
  if (cursor.length > MAX_CURSOR_LENGTH) throw fail(`longer than ${MAX_CURSOR_LENGTH} characters`);
  // Buffer.from silently skips characters outside the alphabet, so check them first.
  if (!BASE64URL.test(cursor)) throw fail("not base64url");
  const bytes = Buffer.from(cursor, "base64url");
  // Re-encoding catches leftover bits and impossible lengths that decoding forgives.
  if (bytes.toString("base64url") !== cursor) throw fail("not base64url");
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw fail("not a cursor issued by this server");
  }
  if (!isPlainObject(parsed)) throw fail("not a cursor issued by this server");
  for (const entry of Object.values(parsed)) {
    // A string the database cannot compare (NUL, lone surrogate) is no cursor of ours either.
    const ok =
      (typeof entry === "string" && textProblem(entry) === undefined) ||
      (typeof entry === "number" && Number.isFinite(entry));
    if (!ok) throw fail("not a cursor issued by this server");
  }
  return parsed as CursorValue;
}

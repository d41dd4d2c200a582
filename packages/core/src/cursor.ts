import { ErrorCode, RegistryError } from "./errors.ts";
import { isPlainObject } from "./plain-object.ts";
import { quote } from "./quote.ts";
import { textProblem } from "./text.ts";

export type CursorValue = Record<string, string | number>;

// Keyset cursors hold a few names of at most 249 characters; anything far longer is not ours.
const MAX_CURSOR_LENGTH = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** How a cursor of a registry's whole subtree begins (federation's subtree-cursor.ts). */
export const SUBTREE_CURSOR_PREFIX = "subtree:";

/** Where a cursor's list is kept in it: no list's own key starts so. */
const LIST_KEY = "@list";

/**
 * Opaque to clients: base64url so it survives URLs and nobody is tempted to edit it. It names its
 * `list` ("streams", "changes", ...), and decodeCursor refuses it for any other: two lists whose
 * keys look alike (streams and clusters, both by name) must not page each other.
 */
export function encodeCursor(list: string, value: CursorValue): string {
  for (const [key, entry] of Object.entries(value)) {
    // JSON would turn these into null, producing a cursor that decodeCursor rejects.
    if (typeof entry === "number" && !Number.isFinite(entry)) {
      throw new RangeError(`cursor value ${JSON.stringify(key)} must be a finite number, got ${entry}`);
    }
  }
  return Buffer.from(JSON.stringify({ [LIST_KEY]: list, ...value }), "utf8").toString("base64url");
}

/** The value of a cursor of `list`; INVALID_INPUT (on `after`, or `field`) for anything else. */
export function decodeCursor(cursor: string, list: string, field?: string[]): CursorValue {
  const fail = (reason: string): RegistryError =>
    new RegistryError(
      ErrorCode.INVALID_INPUT,
      `cursor ${quote(cursor)} is not valid: ${reason}`,
      field ?? ["after"],
    );
  if (cursor.length > MAX_CURSOR_LENGTH) throw fail(`longer than ${MAX_CURSOR_LENGTH} characters`);
  const subtree = subtreeListOf(cursor);
  if (subtree !== undefined) throw foreignCursor(subtree, list, field);
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
  const { [LIST_KEY]: of, ...value } = parsed as CursorValue;
  if (typeof of !== "string") throw fail("not a cursor issued by this server");
  if (of !== list) throw foreignCursor(of, list, field);
  return value;
}

/** The list a subtree cursor names ("streams (INDEX)"), if `cursor` is one. */
function subtreeListOf(cursor: string): string | undefined {
  if (!cursor.startsWith(SUBTREE_CURSOR_PREFIX)) return undefined;
  try {
    const text = Buffer.from(cursor.slice(SUBTREE_CURSOR_PREFIX.length), "base64url").toString("utf8");
    const [list, consistency] = JSON.parse(text) as unknown[];
    if (typeof list === "string" && typeof consistency === "string") return `${list} (${consistency})`;
  } catch {
    // not one of ours: refused below as such
  }
  return undefined;
}

/** A cursor of another list (or of the same list at another consistency) given as `after`. */
export function foreignCursor(of: string, list: string, field: string[] = ["after"]): RegistryError {
  return new RegistryError(
    ErrorCode.INVALID_INPUT,
    `${field.at(-1) ?? "after"} is a cursor of the list ${quote(of)}, not of ${list}: a cursor pages on only the list that gave it`,
    field,
  );
}

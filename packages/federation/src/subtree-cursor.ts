import { SUBTREE_CURSOR_PREFIX as PREFIX } from "@stream-registry/core";

/** Where a page of a subtree's items ends: the source (this registry: "", or a child's name) and its own cursor. */
export interface SubtreePosition {
  source: string;
  cursor: string;
}

/** The list a subtree cursor pages: its field ("streams") and its consistency ("INDEX", "LIVE"). */
export interface SubtreeList {
  list: string;
  consistency: string;
}

/** An opaque cursor for a position in the items of a registry's whole subtree, in `of`. */
export function encodeSubtreeCursor(of: SubtreeList, position: SubtreePosition): string {
  const parts = [of.list, of.consistency, position.source, position.cursor];
  return PREFIX + Buffer.from(JSON.stringify(parts), "utf8").toString("base64url");
}

/**
 * The list and position a cursor of encodeSubtreeCursor holds; undefined for another cursor (a
 * registry's own, from before it had children). Throws for a subtree cursor that is not one of ours.
 */
export function decodeSubtreeCursor(cursor: string): (SubtreeList & SubtreePosition) | undefined {
  if (!cursor.startsWith(PREFIX)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 4 || !decoded.every((part) => typeof part === "string")) {
    throw new Error("not a cursor of this registry's pages");
  }
  const [list, consistency, source, position] = decoded as [string, string, string, string];
  return { list, consistency, source, cursor: position };
}

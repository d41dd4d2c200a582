/** Where a page of a subtree's items ends: the source (this registry: "", or a child's name) and its own cursor. */
export interface SubtreePosition {
  source: string;
  cursor: string;
}

const PREFIX = "subtree:";

/** An opaque cursor for a position in the items of a registry's whole subtree. */
export function encodeSubtreeCursor(position: SubtreePosition): string {
  return (
    PREFIX + Buffer.from(JSON.stringify([position.source, position.cursor]), "utf8").toString("base64url")
  );
}

/**
 * The position a cursor of encodeSubtreeCursor holds; undefined for another cursor (a registry's own,
 * from before it had children). Throws for a subtree cursor that is not one of ours.
 */
export function decodeSubtreeCursor(cursor: string): SubtreePosition | undefined {
  if (!cursor.startsWith(PREFIX)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || !decoded.every((part) => typeof part === "string")) {
    throw new Error("not a cursor of this registry's pages");
  }
  return { source: decoded[0] as string, cursor: decoded[1] as string };
}

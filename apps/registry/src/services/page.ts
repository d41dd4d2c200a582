import { decodeCursor, encodeCursor, ErrorCode, RegistryError } from "@stream-registry/core";

/** One page of a keyset-paginated list; cursors are opaque to clients. */
export interface Page<T> {
  items: { node: T; cursor: string }[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  totalCount: () => Promise<number>;
}

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/**
 * A page of `rows`, read one past `take` to learn whether there is a next page; each item's
 * cursor is `key(row)`, encoded for `list`.
 */
export function page<T>(
  list: string,
  rows: T[],
  take: number,
  hasPreviousPage: boolean,
  key: (row: T) => Record<string, string | number>,
  totalCount: () => Promise<number>,
): Page<T> {
  return {
    items: rows.slice(0, take).map((node) => ({ node, cursor: encodeCursor(list, key(node)) })),
    hasNextPage: rows.length > take,
    hasPreviousPage,
    totalCount,
  };
}

type FieldKinds = Record<string, "string" | "number">;
type FieldValues<K extends FieldKinds> = { [F in keyof K]: K[F] extends "number" ? number : string };

/** Decodes a cursor and checks it has exactly the fields this list's cursors have. */
export function cursorFields<K extends FieldKinds>(cursor: string, list: string, kinds: K): FieldValues<K> {
  const value = decodeCursor(cursor, list);
  const keys = Object.keys(kinds);
  if (Object.keys(value).length !== keys.length || keys.some((key) => typeof value[key] !== kinds[key])) {
    throw badCursor(cursor);
  }
  return value as FieldValues<K>;
}

export function badCursor(cursor: string): RegistryError {
  return new RegistryError(
    ErrorCode.INVALID_INPUT,
    `cursor "${cursor.slice(0, 64)}" does not belong to this list`,
    ["after"],
  );
}

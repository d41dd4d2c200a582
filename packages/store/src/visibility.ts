import type { Visibility } from "@stream-registry/core";
import { Prisma } from "./generated/prisma/client.ts";

/**
 * Who sees what, in SQL (issue 11): a list filters its rows with the principal's visibility (core's
 * `Access.visibility`, (scope, prefix) pairs below this registry's namespace) in the same statement
 * that pages and counts them, so a total or a cursor says nothing of a row the principal may not
 * see. "all" adds no condition; no pair matches nothing.
 */

/**
 * The condition on a row of namespace `namespace` (a path below this registry's; "" its own) and,
 * for streams and bindings, stream name `name`: some pair's scope covers the namespace (whole
 * segments) and, if the pair has a prefix, the name starts with it. Qualify both columns: the
 * pairs are rows with columns "scope" and "prefix" of their own.
 */
export function visibleSql(visible: Visibility, namespace: Prisma.Sql, name?: Prisma.Sql): Prisma.Sql {
  if (visible === "all") return Prisma.sql`TRUE`;
  if (visible.length === 0) return Prisma.sql`FALSE`;
  const prefixed = name === undefined ? Prisma.sql`FALSE` : Prisma.sql`starts_with(${name}, v.prefix)`;
  return Prisma.sql`EXISTS (
    SELECT FROM jsonb_to_recordset(${JSON.stringify(visible)}::jsonb) AS v(scope text, prefix text)
    WHERE (v.scope = '' OR ${namespace} = v.scope OR starts_with(${namespace}, v.scope || '/'))
      AND (v.prefix IS NULL OR ${prefixed}))`;
}

/**
 * What of this registry's own rows (namespace "") a visibility shows: all, none, or the streams
 * whose names start with one of `prefixes` (and their bindings).
 */
export type OwnVisibility = "all" | "none" | { prefixes: string[] };

export function ownVisibility(visible: Visibility): OwnVisibility {
  if (visible === "all") return "all";
  const own = visible.filter((pair) => pair.scope === "");
  if (own.length === 0) return "none";
  if (own.some((pair) => pair.prefix === null)) return "all";
  return { prefixes: own.map((pair) => pair.prefix!) };
}

/** A Prisma condition on a stream's name for the own rows a visibility shows (undefined: no condition). */
export function visibleStreamNames(
  visible: Visibility,
): { OR: { name: { startsWith: string } }[] } | { id: { in: [] } } | undefined {
  const own = ownVisibility(visible);
  if (own === "all") return undefined;
  if (own === "none") return { id: { in: [] } };
  // Prisma hands startsWith to LIKE unescaped, and "_" is common in stream names.
  return { OR: own.prefixes.map((prefix) => ({ name: { startsWith: prefix.replace(/[\\%_]/g, "\\$&") } })) };
}

import type { Column } from "../output/table.ts";
import type { StatementContext } from "./context.ts";

/**
 * What `--namespace` adds to an operation. The registry routes each to the registry that owns the
 * namespace (a mutation's `input.namespace`, a look-up's `namespace` argument) or keeps a list to
 * that namespace and those below it (`filter.namespace`). Without it the registry applies
 * mutations and look-ups to its own namespace and lists its whole subtree.
 */
export function namespaceInput(context: StatementContext): { namespace?: string } {
  return context.namespace === undefined ? {} : { namespace: context.namespace };
}

/** A list's filter, with the namespace when one was given; null when there is nothing to filter. */
export function namespaceFilter(
  context: StatementContext,
  filter: Record<string, unknown> = {},
): Record<string, unknown> | null {
  const given = { ...filter, ...namespaceInput(context) };
  return Object.keys(given).length > 0 ? given : null;
}

/** Selected beside a list: the registry's own namespace, to tell its rows from its children's. */
export const OWN_NAMESPACE = "registryNamespace: namespace { path }";

/** The registry's namespace as read through OWN_NAMESPACE (absent from registries that lack it). */
export function ownNamespace(data: Record<string, unknown>): string | undefined {
  const path = (data.registryNamespace as { path?: unknown } | null | undefined)?.path;
  return typeof path === "string" ? path : undefined;
}

const NAMESPACE_COLUMN: Column = { key: "namespace", header: "namespace" };

/**
 * A list's columns, with a namespace column first when its rows are not all the registry's own:
 * they span namespaces, or one of them is another's. A registry without children prints as it
 * always has.
 */
export function withNamespaceColumn(
  columns: Column[],
  rows: { namespace?: unknown }[],
  own: string | undefined,
): Column[] {
  const namespaces = new Set(rows.map((row) => row.namespace).filter((ns) => typeof ns === "string"));
  const foreign = [...namespaces].some((ns) => own !== undefined && ns !== own);
  return namespaces.size > 1 || foreign ? [NAMESPACE_COLUMN, ...columns] : columns;
}

/** " in namespace /aws" when --namespace was given, for "does not exist" messages. */
export function inNamespace(context: StatementContext): string {
  return context.namespace === undefined ? "" : ` in namespace ${context.namespace}`;
}

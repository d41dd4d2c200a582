import { ENTITY_KINDS, ErrorCode, RegistryError } from "@stream-registry/core";
import { encodeSubtreeCursor, type SubtreeList, type SubtreePosition } from "@stream-registry/federation";
import type { IndexedKind, IndexFilter, IndexPosition } from "@stream-registry/store";
import { toConnection, type ConnectionModel, type IndexLagModel } from "./connection.ts";
import { accessOf } from "./authorize.ts";
import type { GraphQLContext } from "./context.ts";
import { absolutePath, indexedObject } from "./indexed-objects.ts";

/** The source of a subtree cursor that points into the index (no registry is named "*"). */
export const INDEX_SOURCE = "*";

/** A list at a registry with children, answered from its discovery index (consistency INDEX). */
export interface IndexedList<F> {
  kind: IndexedKind;
  first: number;
  /** The client's filter, its namespace aside. */
  filter: F | null;
  /** filter.namespace: all of it, or only the items of that namespace and those below it. */
  namespace: string | undefined;
  position: SubtreePosition | undefined;
}

/**
 * The registry's own items first (as it lists them, with its own cursors), then the index's rows
 * of its children's subtrees, by namespace path, then name (bindings: by stream, then creation,
 * the default first), each a value of its type resolved from the document its owner gave
 * (indexed-objects.ts). A cursor holds the last row's sort key, so paging returns every row
 * once, also while rows are added. `lag` says how far behind each child the rows are.
 */
export async function indexedConnection<F, T>(
  context: GraphQLContext,
  list: IndexedList<F>,
  /** What its cursors name: the list, at consistency INDEX. */
  of: SubtreeList,
  own: (filter: F | null, page: { first: number; after: string | null }) => Promise<ConnectionModel<T>>,
): Promise<ConnectionModel<T>> {
  const { first, position, namespace } = list;
  const ownPath = context.namespace;
  const includesOwn = namespace === undefined || within(ownPath, namespace);
  // Below this registry's namespace: the rows of that namespace's subtree; at or above it: all.
  const below = includesOwn ? undefined : namespace!.slice(ownPath === "/" ? 1 : ownPath.length + 1);
  const filter: IndexFilter = {
    ...(list.filter ?? {}),
    ...(below === undefined ? {} : { namespace: below }),
  };
  // The rows the principal reads (issue 11): filtered in SQL, so totals and cursors tell nothing more.
  const namedByStream = ENTITY_KINDS.some((row) => row.kind === list.kind && row.namedByStream);
  const visible = (await accessOf(context)).visibility(namedByStream ? "stream" : "other");
  const items: { node: T; cursor: string }[] = [];
  let hasNextPage = false;
  let ownPage: ConnectionModel<T> | undefined;
  if (includesOwn && (!position || position.source === "")) {
    ownPage = await own(list.filter, { first, after: position?.cursor ?? null });
    for (const edge of ownPage.edges)
      items.push({ node: edge.node, cursor: encodeSubtreeCursor(of, { source: "", cursor: edge.cursor }) });
    hasNextPage = ownPage.pageInfo.hasNextPage;
  }
  if (!hasNextPage) {
    const after = position?.source === INDEX_SOURCE ? decodeIndexPosition(position.cursor) : undefined;
    const need = first - items.length;
    const indexed = await context.services.index.page(list.kind, filter, need, after, visible);
    for (const row of indexed.rows) {
      const key: IndexPosition = [
        row.namespace,
        row.name,
        row.createdAt.toISOString(),
        !row.isDefault,
        row.cluster,
      ];
      items.push({
        node: indexedObject(row) as T,
        cursor: encodeSubtreeCursor(of, { source: INDEX_SOURCE, cursor: JSON.stringify(key) }),
      });
    }
    hasNextPage = indexed.hasNextPage;
  }
  const ownTotal = async () =>
    !includesOwn ? 0 : (ownPage ?? (await own(list.filter, { first: 0, after: null }))).totalCount();
  const page = {
    items,
    hasNextPage,
    hasPreviousPage: position !== undefined,
    totalCount: async () =>
      (await ownTotal()) + (await context.services.index.count(list.kind, filter, visible)),
  };
  return {
    ...toConnection(page),
    lag: () =>
      indexLag(context, (owner) => below === undefined || within(owner, below) || within(below, owner)),
  };
}

/**
 * The lag of the index's registries that `keep` keeps (by path below this registry's), of those
 * whose namespaces the principal may know of.
 */
export async function indexLag(
  context: GraphQLContext,
  keep: (below: string) => boolean,
): Promise<IndexLagModel[]> {
  const access = await accessOf(context);
  const lags = await context.services.index.lag((below) => keep(below) && access.knowsOf(below));
  return lags.map(({ below, ...lag }) => ({ namespace: absolutePath(context.namespace, below), ...lag }));
}

/** Whether `path` is `root` or below it (absolute paths, or paths below this registry's). */
function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

function decodeIndexPosition(cursor: string): IndexPosition {
  let key: unknown;
  try {
    key = JSON.parse(cursor);
  } catch {
    key = undefined;
  }
  const valid =
    Array.isArray(key) &&
    key.length === 5 &&
    typeof key[0] === "string" &&
    typeof key[1] === "string" &&
    typeof key[2] === "string" &&
    !Number.isNaN(Date.parse(key[2])) &&
    typeof key[3] === "boolean" &&
    typeof key[4] === "string";
  if (!valid)
    throw new RegistryError(ErrorCode.INVALID_INPUT, "after is not a cursor of this list", ["after"]);
  return key as IndexPosition;
}

import { checkPageSize, ENTITY_KINDS, ErrorCode, foreignCursor, RegistryError } from "@stream-registry/core";
import {
  childPageOperation,
  decodeSubtreeCursor,
  encodeSubtreeCursor,
  remoteValue,
  RemoteRegistryError,
  type SubtreeList,
  type SubtreePosition,
} from "@stream-registry/federation";
import { getNamedType, isObjectType, Kind, type GraphQLOutputType, type GraphQLResolveInfo } from "graphql";
import { toConnection, type ConnectionModel } from "./connection.ts";
import { indexedConnection, INDEX_SOURCE } from "./indexed-list.ts";
import { confirmNamespace } from "./namespace-check.ts";
import { childErrorEntry, pathOf } from "./child-errors.ts";
import type { GraphQLContext } from "./context.ts";
import { askChild, MAX_HOPS } from "./child-calls.ts";

/** A list field's arguments, its filter with the namespace whose subtree to list. */
export interface SubtreeArgs<F> {
  filter?: (F & { namespace?: string | null }) | null;
  first?: number | null;
  after?: string | null;
  consistency?: "INDEX" | "LIVE" | null;
}

/** One source of a subtree's items: this registry ("") or a child, in tree order. */
interface Source {
  key: string;
  path: string;
  url?: string;
  /** The child's registry id: the audience of the token sent with the call. */
  registryId?: string;
}

interface SourcePage {
  items: { node: unknown; cursor: string }[];
  hasNextPage: boolean;
  totalCount: () => Promise<number>;
}

/**
 * A list field of a kind of ENTITY_KINDS (streams, clusters, bindings; `filterType` its filter
 * input) over this registry's whole subtree. By default, at a
 * registry with children, answered from its discovery index (indexed-list.ts). As a live query
 * (consistency LIVE): its own items first, then each child's subtree (children by name, each asked concurrently, with
 * the client's filter and node selection), so the order is stable and each namespace's items stay
 * together. A cursor holds the source it is in and that source's own cursor: paging returns every
 * item once, also while items are added. `filter.namespace` keeps the items of that namespace and
 * those below it, and asks only the children that can have them. A child that cannot be reached
 * leaves its items out and adds a CHILD_UNAVAILABLE error naming its namespace.
 */
export async function subtreeConnection<F extends object, T>(
  info: GraphQLResolveInfo,
  context: GraphQLContext,
  args: SubtreeArgs<F>,
  filterType: string,
  own: (filter: F | null, page: { first: number; after: string | null }) => Promise<ConnectionModel<T>>,
): Promise<ConnectionModel<T>> {
  const kind = ENTITY_KINDS.find((row) => row.filter === filterType);
  if (!kind) throw new Error(`${filterType} is the filter of no kind of ENTITY_KINDS`);
  const first = checkPageSize(args.first);
  const { namespace, ...rest } = args.filter ?? {};
  const ownFilter = args.filter ? (rest as F) : null;
  // A namespace above this registry's keeps its whole subtree; one below must have an owner (or
  // it is NOT_FOUND, as a mutation for it is), and one elsewhere is refused (INVALID_INPUT). Deeper
  // than a child's own, the child says whether it exists (live, or when the index has nothing).
  const owner =
    namespace !== null && namespace !== undefined && !within(context.namespace, namespace)
      ? await context.services.children.ownerOf(namespace, ["filter", "namespace"])
      : null;
  const live = args.consistency === "LIVE";
  const of = { list: kind.list, consistency: live ? "LIVE" : "INDEX" };
  const position = decodePosition(args.after, of);
  // An operation that went round a loop of registries lists this registry's own items alone.
  const children = context.hops >= MAX_HOPS ? [] : await context.services.children.routes();
  if (!live && (children.length > 0 || position?.source === INDEX_SOURCE)) {
    const list = {
      kind: kind.kind,
      first,
      filter: ownFilter,
      namespace: namespace ?? undefined,
      position,
    };
    const connection = await indexedConnection(context, list, of, own);
    if (owner && namespace !== owner.path && !position && connection.edges.length === 0)
      await confirmNamespace(info, context, filterType, owner, namespace!);
    return connection;
  }
  // By code point, as cursors compare sources below, whatever the database's collation.
  children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sources: Source[] = [
    { key: "", path: context.namespace },
    ...children.map((child) => ({
      key: child.name,
      path: context.services.children.pathOf(child.name),
      url: child.url,
      registryId: child.registryId,
    })),
  ].filter((source) => canMatch(source, namespace ?? undefined, context.namespace));
  // A registry without children lists as it always has, with its own cursors.
  if (sources.length === 1 && sources[0]!.key === "" && !position) {
    return own(ownFilter, { first, after: args.after ?? null });
  }
  const start = position ? sources.findIndex((source) => source.key >= position.source) : 0;
  const nodeType = connectionNodeType(info.returnType);
  // Before the cursor's source: its total only; at it: after its cursor; after it: from the start.
  const pageAt = (source: Source, index: number) => ({
    first: start === -1 || index < start ? 0 : first,
    after: position && index === start && source.key === position.source ? position.cursor : null,
  });
  const asked = (source: Source, index: number) => pageAt(source, index).first > 0 || selectsTotal(info);
  // The children about to be asked are charged to the caller's rate limit before any call goes out.
  await context.rateLimit.chargeChildren(sources.filter((s, index) => s.url && asked(s, index)).length);
  const pages = await Promise.all(
    sources.map((source, index) => {
      const page = pageAt(source, index);
      if (!asked(source, index)) return Promise.resolve(empty());
      return source.url
        ? childPage(source, info, context, filterType, { filter: args.filter ?? null, ...page }, nodeType)
        : own(ownFilter, page).then(ownPage);
    }),
  );
  // A child's nodes stand for T: passThroughRemote resolves their fields as the child gave them.
  const items: { node: T; cursor: string }[] = [];
  let hasNextPage = false;
  for (const [index, page] of pages.entries()) {
    if (start === -1 || index < start) continue;
    for (const item of page.items) {
      if (items.length === first) {
        hasNextPage = true;
        break;
      }
      items.push({
        node: item.node as T,
        cursor: encodeSubtreeCursor(of, { source: sources[index]!.key, cursor: item.cursor }),
      });
    }
    // A source with more than it gave ends the page there, even a short page: the next one goes
    // on from its last item, never past items it did not give.
    if (
      hasNextPage ||
      page.hasNextPage ||
      (items.length === first && pages.slice(index + 1).some(hasItems))
    ) {
      hasNextPage = true;
      break;
    }
  }
  return toConnection({
    items,
    hasNextPage,
    hasPreviousPage: position !== undefined,
    totalCount: async () =>
      (await Promise.all(pages.map((page) => page.totalCount()))).reduce((a, b) => a + b, 0),
  });
}

/**
 * The position `after` holds in `of` (a subtree cursor), or at the start of this registry's own
 * items (its own cursor, which its own list checks). A cursor of another list, or of this list at
 * the other consistency, is refused, naming the list it belongs to.
 */
function decodePosition(after: string | null | undefined, of: SubtreeList): SubtreePosition | undefined {
  if (!after) return undefined;
  let decoded: ReturnType<typeof decodeSubtreeCursor>;
  try {
    decoded = decodeSubtreeCursor(after);
  } catch {
    throw new RegistryError(ErrorCode.INVALID_INPUT, "after is not a cursor of this list", ["after"]);
  }
  if (!decoded) return { source: "", cursor: after };
  const { list, consistency, ...position } = decoded;
  if (list !== of.list || consistency !== of.consistency)
    throw foreignCursor(`${list} (${consistency})`, `${of.list} (${of.consistency})`);
  return position;
}

/** Whether `path` is `root` or below it. */
function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

/** Whether `source`'s subtree can hold items of `namespace`'s subtree (none: everything). */
function canMatch(source: Source, namespace: string | undefined, ownPath: string): boolean {
  if (namespace === undefined) return true;
  // This registry's own items are of its path alone; a child's are of its whole subtree.
  if (source.key === "") return within(ownPath, namespace);
  return within(source.path, namespace) || within(namespace, source.path);
}

function ownPage<T>(connection: ConnectionModel<T>): SourcePage {
  return {
    items: connection.edges,
    hasNextPage: connection.pageInfo.hasNextPage,
    totalCount: connection.totalCount,
  };
}

function empty(): SourcePage {
  return { items: [], hasNextPage: false, totalCount: async () => 0 };
}

function hasItems(page: SourcePage): boolean {
  return page.items.length > 0 || page.hasNextPage;
}

interface ChildPageAnswer {
  page: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean };
    edges: { cursor: string; node: unknown }[];
  } | null;
}

async function childPage(
  source: Source,
  info: GraphQLResolveInfo,
  context: GraphQLContext,
  filterType: string,
  page: { filter: unknown; first: number; after: string | null },
  nodeType: GraphQLOutputType,
): Promise<SourcePage> {
  const { query, variables } = childPageOperation(info, filterType, page);
  const leftOut = (why: string): SourcePage => {
    context.partial.push({
      message: `the child registry that owns ${source.path} cannot be reached, and its items are left out: ${why}`,
      path: pathOf(info),
      extensions: { code: ErrorCode.CHILD_UNAVAILABLE, namespace: source.path },
    });
    return empty();
  };
  const answer = await askChild<ChildPageAnswer>(
    context,
    { url: source.url!, registryId: source.registryId! },
    query,
    variables,
  );
  if (answer instanceof RemoteRegistryError) return leftOut(answer.message);
  // The child's errors come along: its refusal of the page, or its own partial answer (a
  // grandchild it left out).
  for (const error of answer.errors) context.partial.push(childErrorEntry(error, source.path, info));
  const got = answer.data?.page;
  if (!got) return answer.errors.length > 0 ? empty() : leftOut("it answered without the page");
  return {
    items: got.edges.map((edge) => ({ node: remoteValue(edge.node, nodeType), cursor: edge.cursor })),
    hasNextPage: got.pageInfo.hasNextPage,
    totalCount: async () => got.totalCount,
  };
}

/** The node type of a connection type (StreamConnection!: Stream). */
function connectionNodeType(type: GraphQLOutputType): GraphQLOutputType {
  const connection = getNamedType(type);
  const nodes = isObjectType(connection) ? connection.getFields().nodes : undefined;
  if (!nodes) throw new Error(`${connection.name} is not a connection`);
  return getNamedType(nodes.type);
}

/** Whether the client selected totalCount (a fragment may hold it: then assume so). */
function selectsTotal(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) =>
    (node.selectionSet?.selections ?? []).some(
      (selection) => selection.kind !== Kind.FIELD || selection.name.value === "totalCount",
    ),
  );
}

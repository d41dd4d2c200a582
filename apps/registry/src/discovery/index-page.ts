import { ENTITY_KINDS, formatFqn, parseFqn } from "@stream-registry/core";
import type { FeedDescendant, FeedEntry, FeedLag } from "@stream-registry/federation";
import type {
  DescendantHealth,
  DescendantLag,
  FeedRead,
  IndexedEntry,
  IndexFollow,
  IndexKey,
  IndexPage,
  RepublishedChange,
} from "@stream-registry/store";

/** What a child answered for the objects its own entries name, in the order asked (null: gone). */
export interface DocumentAnswer {
  _entities: (Record<string, unknown> | null)[];
}

/** A representation of an entity, as `_entities` takes it: by its namespace and name, or its fqn. */
export type Representation =
  { __typename: string; namespace: string; name: string } | { __typename: string; fqn: string };

type Kind = (typeof ENTITY_KINDS)[number];

/** The kind (ENTITY_KINDS) of a feed entry's entity type; undefined for others (a grant, an index). */
function kindOf(entityType: string): Kind | undefined {
  return ENTITY_KINDS.find((row) => row.kind === entityType);
}

/** What tells one entry of a feed from another that took its place in a feed started over. */
export function fingerprint(
  entry: Pick<FeedEntry, "seq" | "at" | "entityType" | "entityKey" | "action">,
): string {
  return JSON.stringify([entry.seq, entry.at, entry.entityType, entry.entityKey, entry.action]);
}

/**
 * The entities the child's own entries name, once each, as representations for `_entities`. The
 * key of a kind named by fqn (a binding) is its fqn as it was written, which may name the child's
 * earlier path: it is named again by the child's path now.
 */
export function ownKeys(entries: FeedEntry[], childPath: string): Representation[] {
  const keys = new Map<string, Representation>();
  for (const entry of entries) {
    const kind = kindOf(entry.entityType);
    if (!kind || entry.namespace !== childPath) continue;
    const representation: Representation =
      kind.key === "fqn"
        ? { __typename: kind.typename, fqn: rebased(entry.entityKey, childPath) }
        : { __typename: kind.typename, namespace: childPath, name: entry.entityKey };
    keys.set(JSON.stringify(representation), representation);
  }
  return [...keys.values()];
}

/**
 * What a page of a child's feed makes of the index: each entry of an entity becomes its row (the
 * document the child answered for its own entries, the one it indexed for those below it) or the
 * removal of its row; an "index"/"dropped" entry drops a namespace's rows. Every entry goes on to
 * this registry's own feed, its data the document (or {} once the entity is gone).
 */
export function indexPage(
  follow: IndexFollow,
  registry: { id: string; namespace: string },
  entries: FeedEntry[],
  keys: Representation[],
  documents: (Record<string, unknown> | null)[],
  read: FeedRead,
): IndexPage {
  const byKey = new Map(keys.map((key, i) => [JSON.stringify(key), documents[i] ?? null]));
  const dropped: string[] = [];
  const rows = new Map<string, { key: IndexKey; entry: IndexedEntry | null }>();
  const republish: RepublishedChange[] = [];
  for (const entry of entries) {
    const below = belowPath(follow.name, entry.namespace, registry.namespace);
    if (below === undefined) continue; // not of the child's subtree: nothing to index
    let data = entry.data;
    if (entry.entityType === "index" && entry.action === "dropped") {
      dropped.push(below);
      for (const [id, row] of rows) if (within(row.key.namespace, below)) rows.delete(id);
    }
    const kind = kindOf(entry.entityType);
    if (kind) {
      const key = indexKey(kind, below, entry.entityKey);
      const own = entry.namespace === registry.namespace;
      const doc = own
        ? (byKey.get(JSON.stringify(ownKeys([entry], registry.namespace)[0])) ?? null)
        : asDocument(data);
      rows.set(JSON.stringify(key), { key, entry: doc ? { ...key, ...rowFields(doc), doc } : null });
      data = doc ?? {};
    }
    republish.push({
      below,
      entityType: entry.entityType,
      entityKey: entry.entityKey,
      action: entry.action,
      generation: entry.generation,
      actor: entry.actor,
      at: new Date(entry.at),
      data,
    });
  }
  const last = entries.at(-1)!;
  const kept = [...rows.values()];
  return {
    childId: follow.childId,
    from: follow.seq,
    to: {
      seq: BigInt(last.seq),
      fingerprint: fingerprint(last),
      feedRegistryId: registry.id,
      ...read,
    },
    dropped,
    put: kept.flatMap((row) => (row.entry ? [row.entry] : [])),
    removed: kept.flatMap((row) => (row.entry ? [] : [row.key])),
    republish,
  };
}

/** The lag the child's index reported, by path below this registry's. */
export function descendantLag(childName: string, childPath: string, lags: FeedLag[]): DescendantLag[] {
  return lags.flatMap(({ namespace, ...lag }) => {
    const below = belowPath(childName, namespace, childPath);
    return below === undefined ? [] : [{ below, ...lag }];
  });
}

/** The registries below the child, as it reported them, by path below this registry's. */
export function descendantHealth(
  childName: string,
  childPath: string,
  descendants: FeedDescendant[],
): DescendantHealth[] {
  return descendants.flatMap(({ path, url, health }) => {
    const below = belowPath(childName, path, childPath);
    return below === undefined ? [] : [{ below, url, ...health }];
  });
}

/** The row's key: the entity key of a kind named by fqn is its fqn, whose last two segments name it. */
function indexKey({ kind, key }: Kind, namespace: string, entityKey: string): IndexKey {
  if (key !== "fqn") return { kind, namespace, name: entityKey, cluster: "" };
  const { cluster, stream } = parseFqn(entityKey);
  return { kind, namespace, name: stream, cluster };
}

function rowFields(doc: Record<string, unknown>): { createdAt: Date; isDefault: boolean } {
  return { createdAt: new Date(String(doc.createdAt)), isDefault: doc.isDefault === true };
}

/** An indexed document as an entry of a namespace below carries it; {} (or anything else): gone. */
function asDocument(data: unknown): Record<string, unknown> | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  return typeof (data as { createdAt?: unknown }).createdAt === "string"
    ? (data as Record<string, unknown>)
    : null;
}

/**
 * An entry's namespace as a path below this registry's, the child's name first ("us-reg1-xyz",
 * "us-reg1-xyz/dc1"); undefined for one outside the child's subtree as it answered.
 */
export function belowPath(childName: string, namespace: string, childPath: string): string | undefined {
  if (namespace === childPath) return childName;
  const prefix = childPath === "/" ? "/" : `${childPath}/`;
  return namespace.startsWith(prefix) ? `${childName}/${namespace.slice(prefix.length)}` : undefined;
}

function within(namespace: string, root: string): boolean {
  return namespace === root || namespace.startsWith(`${root}/`);
}

/** A binding's fqn in the child's namespace now. */
function rebased(fqn: string, childPath: string): string {
  const { cluster, stream } = parseFqn(fqn);
  return formatFqn(childPath, cluster, stream);
}

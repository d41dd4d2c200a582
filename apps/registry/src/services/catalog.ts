import {
  checkPageSize,
  ErrorCode,
  redactValue,
  RegistryError,
  isUuid,
  type Access,
  type Binding,
  type Cluster,
  type SecretKeyRule,
  type Stream,
  type Visibility,
} from "@stream-registry/core";
import {
  countBindings,
  countClusters,
  countStreams,
  listBindings,
  listClusters,
  listStreams,
  type BindingFilter,
  type ClusterFilter,
  type ConfigEntryFilter,
  type Db,
  type Keyset,
  type NameFilter,
} from "@stream-registry/store";
import type { ServiceDeps } from "./deps.ts";
import { badCursor, cursorFields, page, type Page, type PageArgs } from "./page.ts";

export type { BindingFilter, ClusterFilter, NameFilter } from "@stream-registry/store";

/** How a list keyed by name is read: a page of rows after a name, and the count of them all. */
interface NamedList<T, F> {
  read(db: Db, filter: F, page: Keyset<string>, visible: Visibility): Promise<T[]>;
  count(db: Db, filter: F, visible: Visibility): Promise<number>;
}

const STREAMS: NamedList<Stream, NameFilter> = { read: listStreams, count: countStreams };
const CLUSTERS: NamedList<Cluster, ClusterFilter> = { read: listClusters, count: countClusters };

/** Read side: the catalog's lists, with filters and stable keyset pagination (the change log's is ChangeFeed). */
export class Catalog {
  constructor(private readonly deps: Pick<ServiceDeps, "db" | "providers">) {}

  /** `access`: the streams (of their prefixes) the principal reads, in SQL (store's visibility.ts). */
  streams(filter: NameFilter | null | undefined, args: PageArgs, access: Access): Promise<Page<Stream>> {
    return this.namedPage("streams", STREAMS, filter, args, access.visibility("stream"));
  }

  clusters(filter: ClusterFilter | null | undefined, args: PageArgs, access: Access): Promise<Page<Cluster>> {
    return this.namedPage("clusters", CLUSTERS, filter, args, access.visibility("other"));
  }

  /** Bindings ordered by stream name, then creation: DESCRIBE BINDINGS's order (default first). */
  async bindings(
    filter: BindingFilter | null | undefined,
    args: PageArgs,
    access: Access,
  ): Promise<Page<Binding & { stream: Stream }>> {
    const take = checkPageSize(args.first, ["first"]);
    const cursor = args.after
      ? cursorFields(args.after, "bindings", { s: "string", t: "number", id: "string" })
      : undefined;
    if (cursor && (!isUuid(cursor.id) || Number.isNaN(new Date(cursor.t).getTime())))
      throw badCursor(args.after!);
    const after = cursor && { stream: cursor.s, createdAt: new Date(cursor.t), id: cursor.id };
    const { prisma } = this.deps.db;
    const visible = access.visibility("stream");
    return page(
      "bindings",
      await listBindings(prisma, filter ?? {}, { after, limit: take + 1 }, visible),
      take,
      !!cursor,
      (b) => ({ s: b.stream.name, t: b.createdAt.getTime(), id: b.id }),
      () => countBindings(prisma, filter ?? {}, visible),
    );
  }

  /** A page of a list keyed by name: its config filter checked, rows after the cursor's name. */
  private async namedPage<T extends { name: string }, F extends NameFilter>(
    list: string,
    from: NamedList<T, F>,
    filter: F | null | undefined,
    args: PageArgs,
    visible: Visibility,
  ): Promise<Page<T>> {
    const where = {
      ...filter,
      config: checkConfigFilter(filter?.config ?? [], this.deps.providers.isSecret),
    } as F;
    const take = checkPageSize(args.first, ["first"]);
    const after = args.after ? cursorFields(args.after, list, { name: "string" }).name : undefined;
    const { prisma } = this.deps.db;
    return page(
      list,
      await from.read(prisma, where, { after, limit: take + 1 }, visible),
      take,
      after !== undefined,
      (row) => ({ name: row.name }),
      () => from.count(prisma, where, visible),
    );
  }
}

const MAX_CONFIG_FILTERS = 16;

/**
 * Secrets are write-only: filtering on one (a secret key, providers' included, or a value with
 * a password in it) would let a caller confirm a guessed value. Lists of the discovery index
 * (discovery-index-service.ts) are checked the same way.
 */
export function checkConfigFilter(entries: ConfigEntryFilter[], secrets: SecretKeyRule): ConfigEntryFilter[] {
  // Each entry is one more JSON path condition on every row scanned.
  if (entries.length > MAX_CONFIG_FILTERS) {
    throw new RegistryError(
      ErrorCode.INVALID_INPUT,
      `config filters has ${entries.length} entries; the maximum is ${MAX_CONFIG_FILTERS}`,
      ["filter", "config"],
    );
  }
  entries.forEach((entry, i) => {
    if (secrets(entry.map, entry.key)) {
      throw new RegistryError(ErrorCode.INVALID_INPUT, `cannot filter on secret key "${entry.key}"`, [
        "filter",
        "config",
        String(i),
        "key",
      ]);
    }
    if (redactValue(entry.map, entry.key, entry.value, secrets) !== entry.value) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `cannot filter on a value with credentials in it (key "${entry.key}")`,
        ["filter", "config", String(i), "value"],
      );
    }
  });
  return entries;
}

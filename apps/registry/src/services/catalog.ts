import {
  checkPageSize,
  decodeCursor,
  encodeCursor,
  ErrorCode,
  redactValue,
  RegistryError,
  type Access,
  type Binding,
  type ChangeVisibility,
  type Cluster,
  type Stream,
  type SecretKeyRule,
  isUuid,
} from "@stream-registry/core";
import {
  countBindings,
  countChanges,
  countClusters,
  countStreams,
  latestChangeId,
  listBindings,
  listChanges,
  listClusters,
  listStreams,
  type BindingFilter,
  type Change,
  type ClusterFilter,
  type ConfigEntryFilter,
  type NameFilter,
} from "@stream-registry/store";
import { ChangeSignal } from "./change-signal.ts";
import type { ServiceDeps } from "./deps.ts";

export type { BindingFilter, ClusterFilter, NameFilter } from "@stream-registry/store";

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

/** Read side: lists with filters and stable keyset pagination. */
export class Catalog {
  /** Reads of the change log waiting now (MAX_WAITING at most). */
  private waiting = 0;

  /** Wakes the reads that wait for a change to commit in this process. */
  private readonly committed: ChangeSignal;

  constructor(private readonly deps: Pick<ServiceDeps, "db" | "providers" | "stopping">) {
    this.committed = new ChangeSignal(deps.db);
  }

  /** `access`: the streams (of their prefixes) the principal reads, in SQL (store's visibility.ts). */
  async streams(
    filter: NameFilter | null | undefined,
    args: PageArgs,
    access: Access,
  ): Promise<Page<Stream>> {
    const where = {
      ...filter,
      config: checkConfigFilter(filter?.config ?? [], this.deps.providers.isSecret),
    };
    const take = checkPageSize(args.first, ["first"]);
    const after = args.after ? cursorFields(args.after, "streams", { name: "string" }).name : undefined;
    const { prisma } = this.deps.db;
    const visible = access.visibility("stream");
    return page(
      "streams",
      await listStreams(prisma, where, { after, limit: take + 1 }, visible),
      take,
      after !== undefined,
      (s) => ({ name: s.name }),
      () => countStreams(prisma, where, visible),
    );
  }

  async clusters(
    filter: ClusterFilter | null | undefined,
    args: PageArgs,
    access: Access,
  ): Promise<Page<Cluster>> {
    const where = {
      ...filter,
      config: checkConfigFilter(filter?.config ?? [], this.deps.providers.isSecret),
    };
    const take = checkPageSize(args.first, ["first"]);
    const after = args.after ? cursorFields(args.after, "clusters", { name: "string" }).name : undefined;
    const { prisma } = this.deps.db;
    const visible = access.visibility("other");
    return page(
      "clusters",
      await listClusters(prisma, where, { after, limit: take + 1 }, visible),
      take,
      after !== undefined,
      (c) => ({ name: c.name }),
      () => countClusters(prisma, where, visible),
    );
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

  /**
   * The change log, oldest first. With `waitMs`, a page that would be empty waits up to that
   * long for an entry to commit (a long poll: a parent following the feed learns of a change at
   * once, and asks once a wait when there is none).
   */
  async changes(args: PageArgs & { waitMs?: number | null }, access: Access): Promise<Page<Change>> {
    const take = checkPageSize(args.first, ["first"]);
    const waitMs = args.waitMs ?? 0;
    if (!Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `waitMs must be an integer from 0 to ${MAX_WAIT_MS}, got ${waitMs}`,
        ["waitMs"],
      );
    }
    const seq = args.after ? cursorFields(args.after, "changes", { seq: "string" }).seq : undefined;
    if (seq !== undefined && !(/^\d{1,19}$/.test(seq) && BigInt(seq) <= MAX_BIGINT))
      throw badCursor(args.after!);
    const after = seq === undefined ? undefined : BigInt(seq);
    const { prisma } = this.deps.db;
    // Entries of the namespaces it reads; a parent following the feed reads all.
    const visible = access.changes();
    return page(
      "changes",
      await this.waitForChanges(after, take + 1, waitMs, visible),
      take,
      after !== undefined,
      (c) => ({ seq: c.seq.toString() }),
      () => countChanges(prisma, visible),
    );
  }

  /** Entries after `after`; none yet: waits up to `waitMs` for one to commit. */
  private async waitForChanges(
    after: bigint | undefined,
    limit: number,
    waitMs: number,
    visible: ChangeVisibility,
  ): Promise<Change[]> {
    const { prisma } = this.deps.db;
    // Reads waiting at once are few (a registry has one parent); more do not wait.
    if (this.waiting >= MAX_WAITING) return listChanges(prisma, after, limit, visible);
    this.waiting++;
    try {
      return await this.waitFor(after, limit, Date.now() + waitMs, visible);
    } finally {
      this.waiting--;
    }
  }

  private async waitFor(
    after: bigint | undefined,
    limit: number,
    until: number,
    visible: ChangeVisibility,
  ): Promise<Change[]> {
    const { prisma } = this.deps.db;
    let seen = await latestChangeId(prisma);
    for (;;) {
      const changes = await listChanges(prisma, after, limit, visible);
      if (changes.length > 0 || Date.now() >= until) return changes;
      // Until an entry commits (its id shows) or the wait is over: woken when this process
      // commits one, checking every WAIT_CHECK_MS for another process's.
      while (Date.now() < until && !this.deps.stopping?.aborted) {
        await this.committed.next(Math.min(WAIT_CHECK_MS, until - Date.now()), this.deps.stopping);
        const latest = await latestChangeId(prisma);
        if (latest > seen) {
          seen = latest;
          break;
        }
      }
      if (this.deps.stopping?.aborted) return listChanges(prisma, after, limit, visible);
    }
  }
}

/** The longest a read of the change log may wait for an entry. */
const MAX_WAIT_MS = 10_000;
/**
 * How often a waiting read looks for a new entry another process committed (registry processes
 * sharing a PostgreSQL database); this process's own entries wake it at once (ChangeSignal).
 */
const WAIT_CHECK_MS = 1_000;
/** Reads of the change log waiting at once; another answers at once, as without a wait. */
const MAX_WAITING = 8;

function page<T>(
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

const MAX_CONFIG_FILTERS = 16;
const MAX_BIGINT = 2n ** 63n - 1n;

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

type FieldKinds = Record<string, "string" | "number">;
type FieldValues<K extends FieldKinds> = { [F in keyof K]: K[F] extends "number" ? number : string };

/** Decodes a cursor and checks it has exactly the fields this list's cursors have. */
function cursorFields<K extends FieldKinds>(cursor: string, list: string, kinds: K): FieldValues<K> {
  const value = decodeCursor(cursor, list);
  const keys = Object.keys(kinds);
  if (Object.keys(value).length !== keys.length || keys.some((key) => typeof value[key] !== kinds[key])) {
    throw badCursor(cursor);
  }
  return value as FieldValues<K>;
}

function badCursor(cursor: string): RegistryError {
  return new RegistryError(
    ErrorCode.INVALID_INPUT,
    `cursor "${cursor.slice(0, 64)}" does not belong to this list`,
    ["after"],
  );
}

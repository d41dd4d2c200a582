import { checkPageSize, type Visibility } from "@stream-registry/core";
import {
  countIndexed,
  listIndexed,
  listIndexFollows,
  type DescendantHealth,
  type IndexedEntry,
  type IndexedKind,
  type IndexFilter,
  type IndexPosition,
} from "@stream-registry/store";
import { checkConfigFilter } from "./catalog.ts";
import type { ServiceDeps } from "./deps.ts";

/** How far behind one child the index is (the API's IndexLag). */
export interface IndexLag {
  /** The child's namespace below this registry's (its name). */
  below: string;
  entriesBehind: number;
  secondsBehind: number;
  syncedAt: Date | null;
  lastError: string | null;
}

/**
 * Reads of the aggregated discovery index (store/discovery-index.ts; the follower in
 * discovery/index-follower.ts writes it): pages of its rows, their count, and each child's lag.
 */
export class DiscoveryIndex {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * A page of `kind`'s rows after `after` of those `visible` shows (the principal's visibility of
   * `kind`): `first` of them, and whether there are more.
   */
  async page(
    kind: IndexedKind,
    filter: IndexFilter,
    first: number,
    after: IndexPosition | undefined,
    visible: Visibility,
  ): Promise<{ rows: IndexedEntry[]; hasNextPage: boolean }> {
    checkPageSize(first);
    this.checkFilter(filter);
    const rows = await listIndexed(this.deps.db.prisma, kind, filter, { after, limit: first + 1 }, visible);
    return { rows: rows.slice(0, first), hasNextPage: rows.length > first };
  }

  async count(kind: IndexedKind, filter: IndexFilter, visible: Visibility): Promise<number> {
    this.checkFilter(filter);
    return countIndexed(this.deps.db.prisma, kind, filter, visible);
  }

  /** No filter on a secret (INVALID_INPUT), as a registry's own lists refuse it (catalog.ts). */
  private checkFilter(filter: IndexFilter): void {
    if (filter.config?.length) checkConfigFilter(filter.config, this.deps.providers.isSecret);
  }

  /** The registries below each child, as each reported them at the last read, those `keep` keeps. */
  async descendantHealth(keep: (below: string) => boolean): Promise<DescendantHealth[]> {
    const follows = await listIndexFollows(this.deps.db.prisma);
    return follows.flatMap((follow) => follow.descendantHealth.filter((registry) => keep(registry.below)));
  }

  /**
   * The lag of each child, and of each registry below it as that child's index reported it at the
   * last read (what it reported, plus the time since), those `keep` keeps, in tree order.
   */
  async lag(keep: (below: string) => boolean, now = Date.now()): Promise<IndexLag[]> {
    const follows = await listIndexFollows(this.deps.db.prisma);
    return follows.flatMap((follow) => {
      const behind = follow.latestSeq - follow.seq;
      const since = (follow.caughtUpAt ?? follow.registeredAt).getTime();
      const age = follow.readAt ? Math.max(0, now - follow.readAt.getTime()) / 1000 : 0;
      const own: IndexLag = {
        below: follow.name,
        entriesBehind: Number(behind > 0n ? behind : 0n),
        secondsBehind: Math.max(0, now - since) / 1000,
        syncedAt: follow.caughtUpAt,
        lastError: follow.lastError,
      };
      const below = follow.descendantLag.map((lag) => ({
        ...lag,
        secondsBehind: lag.secondsBehind + age,
        syncedAt: lag.syncedAt === null ? null : new Date(lag.syncedAt),
      }));
      return [own, ...below].filter((lag) => keep(lag.below));
    });
  }
}

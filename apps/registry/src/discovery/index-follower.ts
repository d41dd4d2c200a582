import type { Logger } from "pino";
import type { GraphQLSchema } from "graphql";
import { encodeCursor } from "@stream-registry/core";
import {
  documentsQuery,
  FEED_QUERY,
  RemoteRegistryError,
  type ChildCalls,
  type FeedAnswer,
} from "@stream-registry/federation";
import {
  applyIndexPage,
  ensureIndexFollows,
  listIndexFollows,
  recordIndexRead,
  resetChildIndex,
  writeTransaction,
  type Database,
  type IndexFollow,
} from "@stream-registry/store";
import { forEachConcurrently, Periodic } from "../periodic.ts";
import { descendantLag, fingerprint, indexPage, ownKeys, type DocumentAnswer } from "./index-page.ts";

export interface IndexFollowerConfig {
  /** How often each child's feed is read when the last read found it all indexed (0: never). */
  pollMs: number;
  /** Entries read (and documents asked for) at once. */
  pageSize: number;
}

/** Children whose feeds are read at once. */
const CONCURRENCY = 4;
/** Pages of one feed read in a round before the others get their turn. */
const PAGES_PER_ROUND = 20;
/** How long a read of a feed, or of its documents, may take. */
const CALL_TIMEOUT_MS = 10_000;
/** Who the index's own change-log entries are by. */
const ACTOR = "registry:index";

/**
 * Follows every child's change feed into the discovery index: each round reads, for each child,
 * the entries after its position (the last one indexed again, to tell a feed that started over),
 * asks the child for the objects its own entries name, and writes the rows, the entries (for this
 * registry's own parent) and the new position in one transaction. A child that is down is read
 * again next round, from its position; one whose feed started over (restored, or another registry
 * at its URL) is forgotten and read from the start.
 */
export class IndexFollower {
  private readonly periodic: Periodic;
  private readonly documents: string;
  /** The last failure logged for each child: one that repeats every round is logged once. */
  private readonly logged = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly calls: ChildCalls,
    schema: GraphQLSchema,
    private readonly config: IndexFollowerConfig,
    private readonly logger: Logger,
  ) {
    this.documents = documentsQuery(schema);
    this.periodic = new Periodic(
      config.pollMs,
      (signal) => this.round(signal),
      (error) => logger.warn({ err: error }, "discovery index: a round failed"),
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(timeoutMs: number): Promise<void> {
    return this.periodic.stop(timeoutMs);
  }

  /** One read of every child's feed, as far as it goes (PAGES_PER_ROUND pages at most). */
  async round(signal?: AbortSignal): Promise<void> {
    const { prisma } = this.db;
    await ensureIndexFollows(prisma);
    const follows = await listIndexFollows(prisma);
    await forEachConcurrently(follows, CONCURRENCY, async (follow) => {
      for (let pages = 0; pages < PAGES_PER_ROUND && !signal?.aborted; pages++) {
        let next: IndexFollow | undefined;
        try {
          next = await this.follow(follow, signal);
          this.logged.delete(follow.childId);
        } catch (error) {
          await this.failed(follow, error);
          return;
        }
        if (!next) return;
        follow = next;
      }
    });
  }

  /** Records why a child's feed could not be indexed; logs it unless it is what failed last. */
  private async failed(follow: IndexFollow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (this.logged.get(follow.childId) !== message) {
      this.logged.set(follow.childId, message);
      this.logger.warn({ err: error, child: follow.name }, "discovery index: reading a child's feed failed");
    }
    await recordIndexRead(this.db.prisma, follow.childId, { error: message }).catch(() => {});
  }

  /** Reads and indexes one page; the position after it, or undefined when there is no more. */
  private async follow(follow: IndexFollow, signal?: AbortSignal): Promise<IndexFollow | undefined> {
    const { prisma } = this.db;
    const { pageSize } = this.config;
    const options = { timeoutMs: CALL_TIMEOUT_MS, signal };
    // The last entry indexed is read again: a feed that no longer has it started over.
    const again = follow.seq > 0n;
    const feed = await this.calls.post<FeedAnswer>(
      follow.url,
      FEED_QUERY,
      {
        after: again ? encodeCursor({ seq: String(follow.seq - 1n) }) : null,
        first: pageSize + (again ? 1 : 0),
      },
      options,
    );
    if (!feed.data) throw new RemoteRegistryError("errors", follow.url, feedError(follow, feed.errors));
    const { registry, changes } = feed.data;
    const entries = changes.edges.map((edge) => edge.node);
    const startedOver =
      (follow.feedRegistryId !== null && follow.feedRegistryId !== registry.id) ||
      (again && (entries[0] === undefined || fingerprint(entries[0]) !== follow.fingerprint));
    if (startedOver) {
      this.logger.warn(
        { child: follow.name, seq: follow.seq.toString(), registryId: registry.id },
        "discovery index: the child's feed started over; its rows are dropped and it is indexed again",
      );
      await writeTransaction(prisma, (tx) => resetChildIndex(tx, follow.childId, follow.name, ACTOR));
      return { ...follow, seq: 0n, fingerprint: null, feedRegistryId: null };
    }
    const fresh = again ? entries.slice(1) : entries;
    const read = {
      latestSeq: BigInt(changes.totalCount),
      caughtUp: !changes.pageInfo.hasNextPage,
      descendantLag: descendantLag(follow.name, registry.namespace, feed.data.indexLag),
    };
    if (fresh.length === 0) {
      await recordIndexRead(prisma, follow.childId, { ...read, caughtUp: true });
      return undefined;
    }
    const keys = ownKeys(fresh, registry.namespace);
    const documents =
      keys.length === 0
        ? []
        : await this.calls
            .post<DocumentAnswer>(follow.url, this.documents, { representations: keys }, options)
            .then((answer) => {
              if (!answer.data)
                throw new RemoteRegistryError("errors", follow.url, feedError(follow, answer.errors));
              return answer.data._entities;
            });
    const page = indexPage(follow, registry, fresh, keys, documents, read);
    if (!(await applyIndexPage(prisma, page))) return undefined;
    const last = fresh.at(-1)!;
    const moved = {
      ...follow,
      seq: BigInt(last.seq),
      fingerprint: fingerprint(last),
      feedRegistryId: registry.id,
    };
    return changes.pageInfo.hasNextPage ? moved : undefined;
  }
}

function feedError(follow: IndexFollow, errors: { message: string }[]): string {
  const messages = errors.map((error) => error.message).slice(0, 3);
  return `the child registry ${follow.name} (${follow.url}) did not give its feed: ${messages.join("; ") || "no data"}`;
}

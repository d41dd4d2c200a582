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
import { Periodic } from "../periodic.ts";
import {
  descendantHealth,
  descendantLag,
  fingerprint,
  indexPage,
  ownKeys,
  type DocumentAnswer,
} from "./index-page.ts";

export interface IndexFollowerConfig {
  /** How long a read of a caught-up child's feed waits there for a new entry (a long poll). */
  waitMs: number;
  /** Entries read (and documents asked for) at once. */
  pageSize: number;
}

/** How often the children are looked up, to follow a new one. */
const SUPERVISE_MS = 1_000;
/** How long after a failed read a child's feed is read again. */
const RETRY_MS = 1_000;
/** How long a read of a feed, or of its documents, may take besides its wait. */
const CALL_TIMEOUT_MS = 10_000;
/** Who the index's own change-log entries are by. */
const ACTOR = "registry:index";

/**
 * Follows every child's change feed into the discovery index, each child in a loop of its own:
 * a read asks for the entries after the child's position, waiting there up to `waitMs` for one
 * when there is none (so a new entry is indexed within moments, and an idle child is asked once a
 * wait), and checks that the last entry indexed is still the child's (a feed that started over,
 * restored or another registry at that URL, is forgotten and read from the start). The child is
 * asked for the objects its own entries name, and the rows, the entries (for this registry's own
 * parent) and the new position are written in one transaction. A child that fails is read again
 * after RETRY_MS, from its position; one that left ends its loop.
 */
export class IndexFollower {
  private readonly supervisor: Periodic;
  private readonly documents: string;
  private readonly stopping = new AbortController();
  private readonly loops = new Map<string, Promise<void>>();
  /** The last failure logged for each child: one that repeats every read is logged once. */
  private readonly logged = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly calls: ChildCalls,
    schema: GraphQLSchema,
    private readonly config: IndexFollowerConfig,
    private readonly logger: Logger,
    /** The Authorization of this registry's own calls to the child `registryId` (a token it signs). */
    private readonly authorization: (registryId: string) => Record<string, string>,
  ) {
    this.documents = documentsQuery(schema);
    this.supervisor = new Periodic(
      SUPERVISE_MS,
      () => this.supervise(),
      (error) => logger.warn({ err: error }, "discovery index: the children could not be read"),
    );
  }

  start(): void {
    this.supervisor.start();
  }

  /** Ends every loop: a read in flight (a long poll) is aborted. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error("registry is shutting down"));
    await this.supervisor.stop(CALL_TIMEOUT_MS);
    await Promise.all(this.loops.values());
  }

  /** Starts a loop for each child that has none. */
  private async supervise(): Promise<void> {
    await ensureIndexFollows(this.db.prisma);
    for (const follow of await listIndexFollows(this.db.prisma)) {
      if (this.loops.has(follow.childId) || this.stopping.signal.aborted) continue;
      const loop = this.run(follow.childId).finally(() => this.loops.delete(follow.childId));
      this.loops.set(follow.childId, loop);
    }
  }

  /** Reads one child's feed into the index until the registry stops or the child leaves. */
  private async run(childId: string): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      let follow: IndexFollow | undefined;
      try {
        [follow] = await listIndexFollows(this.db.prisma, childId);
        if (!follow) return;
        await this.read(follow, signal);
        this.logged.delete(childId);
      } catch (error) {
        if (signal.aborted) return;
        if (follow) await this.failed(follow, error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
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

  /** Reads one page of the child's feed (waiting for one if there is none yet) and indexes it. */
  private async read(follow: IndexFollow, signal: AbortSignal): Promise<void> {
    const { prisma } = this.db;
    const options = {
      timeoutMs: CALL_TIMEOUT_MS + this.config.waitMs,
      signal,
      headers: this.authorization(follow.registryId),
    };
    const check = follow.seq > 0n;
    const feed = await this.calls.post<FeedAnswer>(
      follow.url,
      FEED_QUERY,
      {
        check,
        last: check ? encodeCursor("changes", { seq: String(follow.seq - 1n) }) : null,
        after: check ? encodeCursor("changes", { seq: String(follow.seq) }) : null,
        first: this.config.pageSize,
        waitMs: this.config.waitMs,
      },
      options,
    );
    if (!feed.data) throw new RemoteRegistryError("errors", follow.url, feedError(follow, feed.errors));
    const { registry, last, changes } = feed.data;
    // The last entry indexed is still the feed's, and the feed is the same registry's.
    const kept = last?.edges[0]?.node;
    const startedOver =
      (follow.feedRegistryId !== null && follow.feedRegistryId !== registry.id) ||
      (check && (kept === undefined || fingerprint(kept) !== follow.fingerprint));
    if (startedOver) {
      this.logger.warn(
        { child: follow.name, seq: follow.seq.toString(), registryId: registry.id },
        "discovery index: the child's feed started over; its rows are dropped and it is indexed again",
      );
      await writeTransaction(prisma, (tx) => resetChildIndex(tx, follow.childId, follow.name, ACTOR));
      return;
    }
    const entries = changes.edges.map((edge) => edge.node);
    const read = {
      latestSeq: BigInt(changes.totalCount),
      caughtUp: !changes.pageInfo.hasNextPage,
      descendantLag: descendantLag(follow.name, registry.namespace, feed.data.indexLag),
      descendantHealth: descendantHealth(follow.name, registry.namespace, feed.data.namespace.descendants),
    };
    if (entries.length === 0) return recordIndexRead(prisma, follow.childId, read);
    const keys = ownKeys(entries, registry.namespace);
    const documents =
      keys.length === 0
        ? []
        : await this.calls
            .post<DocumentAnswer>(
              follow.url,
              this.documents,
              { representations: keys },
              // A token of its own: each is accepted once.
              { ...options, headers: this.authorization(follow.registryId) },
            )
            .then((answer) => {
              if (!answer.data)
                throw new RemoteRegistryError("errors", follow.url, feedError(follow, answer.errors));
              return answer.data._entities;
            });
    // Not written if the position moved meanwhile (another instance of this registry): the next
    // read starts from where it is now.
    await applyIndexPage(prisma, indexPage(follow, registry, entries, keys, documents, read));
  }
}

function feedError(follow: IndexFollow, errors: { message: string }[]): string {
  const messages = errors.map((error) => error.message).slice(0, 3);
  return `the child registry ${follow.name} (${follow.url}) did not give its feed: ${messages.join("; ") || "no data"}`;
}

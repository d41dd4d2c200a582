import {
  checkPageSize,
  ErrorCode,
  RegistryError,
  type Access,
  type ChangeVisibility,
} from "@stream-registry/core";
import { countChanges, latestChangeId, listChanges, type Change } from "@stream-registry/store";
import { ChangeSignal } from "./change-signal.ts";
import type { ServiceDeps } from "./deps.ts";
import { badCursor, cursorFields, page, type Page, type PageArgs } from "./page.ts";

/** The change log as a list, oldest first, whose empty pages may wait for an entry to commit. */
export class ChangeFeed {
  /** Reads of the change log waiting now (MAX_WAITING at most). */
  private waiting = 0;

  /** Wakes the reads that wait for a change to commit in this process. */
  private readonly committed: ChangeSignal;

  constructor(private readonly deps: Pick<ServiceDeps, "db" | "stopping">) {
    this.committed = new ChangeSignal(deps.db);
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
const MAX_BIGINT = 2n ** 63n - 1n;

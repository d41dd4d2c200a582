import type { Database } from "@stream-registry/store";

/**
 * Wakes the reads of the change log that wait for an entry (a parent's long poll of the feed) when
 * this process may have committed one: a statement that inserted into `change` completed (committed
 * then, unless in a transaction), or the transaction it was in committed. A reader woken before the
 * commit finds nothing new and waits again; the commit wakes it once more. Entries committed by
 * another process sharing a PostgreSQL database are found by the readers' own check every
 * `fallbackMs` instead.
 */
export class ChangeSignal {
  private readonly waiters = new Set<() => void>();
  private inserted = false;

  constructor(db: Pick<Database, "onQuery">) {
    db.onQuery((sql) => {
      if (INSERTS_CHANGE.test(sql)) {
        this.inserted = true;
        this.wake();
      } else if (this.inserted && COMMIT.test(sql)) {
        this.inserted = false;
        this.wake();
      }
    });
  }

  /** Resolves at the next wake-up, after `ms`, or when `signal` aborts, whichever comes first. */
  next(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

const INSERTS_CHANGE = /\bINSERT INTO change\b/i;
const COMMIT = /^\s*COMMIT\b/i;

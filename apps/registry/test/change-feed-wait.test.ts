import { describe, expect, it } from "vitest";
import { CREATE_STREAM, databaseKinds, eventually, mutate } from "@stream-registry/testkit";
import { useTestRegistry } from "./support/test-registry.ts";

// The change feed as a parent follows it: a page that would be empty waits for an entry (a long
// poll), and a wait out of bounds is refused, naming waitMs.
const FEED = `query ($after: String, $waitMs: Int) {
  changes(first: 10, after: $after, waitMs: $waitMs) { pageInfo { endCursor } nodes { entityType entityKey } } }`;
interface Feed {
  changes: { pageInfo: { endCursor: string | null }; nodes: { entityType: string; entityKey: string }[] };
}

describe.each(databaseKinds)("the change feed's long poll on %s", (kind) => {
  const registry = useTestRegistry(kind);

  it("waits at the end of the feed for the next entry, and answers with it", async () => {
    const r = registry();
    await mutate(r, CREATE_STREAM, { input: { name: "first" } });
    let end: string | null = null;
    for (;;) {
      const page: Feed = await r.query<Feed>(FEED, { after: end });
      if (page.changes.nodes.length === 0) break;
      end = page.changes.pageInfo.endCursor;
    }
    // At the end of the feed: the read waits, and a write made meanwhile is its answer.
    const waiting = r.query<Feed>(FEED, { after: end, waitMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await mutate(r, CREATE_STREAM, { input: { name: "second" } });
    expect((await waiting).changes.nodes).toEqual([{ entityType: "stream", entityKey: "second" }]);
    // With nothing to come, it answers an empty page once the wait is over.
    const last = (await r.query<Feed>(FEED, { after: end })).changes.pageInfo.endCursor;
    expect((await r.query<Feed>(FEED, { after: last, waitMs: 200 })).changes.nodes).toEqual([]);
  });

  it("is woken by the entry it waits for, not by asking the database again and again", async () => {
    const r = registry();
    let end: string | null = null;
    for (;;) {
      const page: Feed = await r.query<Feed>(FEED, { after: end });
      if (page.changes.nodes.length === 0) break;
      end = page.changes.pageInfo.endCursor;
    }
    // The wait's checks of the log's last id (store's latestChangeId): one at its start, then one a
    // second for another process's entries; this process's own entry wakes it.
    let checks = 0;
    const stop = r.db.onQuery((sql) => {
      if (/^\s*SELECT max\(id\) AS id FROM change\s*$/.test(sql)) checks++;
    });
    try {
      const idle = await r.query<Feed>(FEED, { after: end, waitMs: 2_500 });
      expect(idle.changes.nodes).toEqual([]);
      expect(checks).toBeGreaterThanOrEqual(1);
      expect(checks).toBeLessThanOrEqual(4);
      checks = 0;
      const waiting = r.query<Feed>(FEED, { after: end, waitMs: 10_000 });
      // Written once the wait has begun (its first check), not at a guessed moment.
      await eventually(async () => checks >= 1 || undefined, 10_000, "the wait's first check");
      await mutate(r, CREATE_STREAM, { input: { name: "woken" } });
      expect((await waiting).changes.nodes).toEqual([{ entityType: "stream", entityKey: "woken" }]);
      expect(checks).toBeLessThanOrEqual(4);
    } finally {
      stop();
    }
  });

  it("refuses a wait that is not an integer from 0 to 10000, naming waitMs", async () => {
    for (const waitMs of [-1, 10_001]) {
      const answer = await registry().request(FEED, { waitMs });
      expect(answer.errors?.[0]).toMatchObject({
        message: expect.stringContaining("waitMs must be an integer from 0 to 10000"),
        extensions: { code: "INVALID_INPUT", field: ["waitMs"] },
      });
    }
  });
});

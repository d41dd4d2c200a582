import { describe, expect, it } from "vitest";
import {
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  DELETE_STREAM,
  UPDATE_BINDING,
  UPDATE_STREAM,
  databaseKinds,
  mutate,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

// Writers run in parallel (no global lock): a reader paging the change log while they commit must
// still see every entry once, in an order that agrees with what happened to each object.

const WRITERS = 8;
/** Each writer writes for this long, and at least MIN_ROUNDS rounds (the machine may be busy). */
const WRITE_MS = 3_000;
const MIN_ROUNDS = 3;

const CHANGES = `query($after: String) {
  changes(first: 50, after: $after) {
    pageInfo { endCursor }
    nodes { seq entityType entityKey action generation }
  } }`;

interface Entry {
  seq: string;
  entityType: string;
  entityKey: string;
  action: string;
  generation: number;
}

interface ChangePage {
  changes: { pageInfo: { endCursor: string | null }; nodes: Entry[] };
}

/**
 * Sends a request again when the connection was reset before an answer: on a busy machine the
 * in-process server may close an idle keep-alive socket just as the client reuses it (Node's
 * keep-alive race); that request never reached the server. Any other failure is the test's.
 */
async function resent<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
    return send();
  }
}

/** One mutation that must succeed (testkit's mutate), sent again after a reset connection. */
function write(r: TestRegistry, document: string, input: Record<string, unknown>): Promise<unknown> {
  return resent(() => mutate(r, document, { input }));
}

/**
 * One writer's round: its own stream, bound to two clusters of its own, updated, and a binding of
 * the stream every writer binds ("hot"), whose default moves as writers come and go; the previous
 * round's stream goes with cascade and its binding of "hot" is deleted.
 */
async function writeRounds(r: TestRegistry, writer: number, until: number): Promise<void> {
  for (let round = 0; round < MIN_ROUNDS || Date.now() < until; round++) {
    const stream = `w${writer}_s${round}`;
    const cluster = `w${writer}-c${round}`;
    await write(r, DECLARE_CLUSTER, { name: cluster });
    await write(r, CREATE_STREAM, { name: stream, config: { "acme.kafka": { round } } });
    await write(r, CREATE_BINDING, { stream, cluster });
    await write(r, CREATE_BINDING, { stream, cluster: `w${writer}-base` });
    await write(r, CREATE_BINDING, { stream: "hot", cluster });
    await write(r, UPDATE_STREAM, { name: stream, config: { "acme.kafka": { round, updated: true } } });
    await write(r, UPDATE_BINDING, { stream, cluster, config: { "acme.kafka": { override: round } } });
    await write(r, DELETE_BINDING, { stream, cluster: `w${writer}-base` });
    if (round > 0) {
      await write(r, DELETE_STREAM, { name: `w${writer}_s${round - 1}`, cascade: true });
      await write(r, DELETE_BINDING, { stream: "hot", cluster: `w${writer}-c${round - 1}` });
    }
  }
}

/** Pages from `after` until an empty page; returns what it read, where it stopped and how many pages. */
async function readOn(
  r: TestRegistry,
  after: string | null,
): Promise<{ read: Entry[]; after: string | null; pages: number }> {
  const read: Entry[] = [];
  for (let pages = 1; ; pages++) {
    const { changes } = await resent(() => r.query<ChangePage>(CHANGES, { after }));
    if (changes.nodes.length === 0) return { read, after, pages };
    read.push(...changes.nodes);
    after = changes.pageInfo.endCursor;
  }
}

describe.each(databaseKinds)(`the change log under ${WRITERS} concurrent writers on %s`, (kind) => {
  const registry = useTestRegistry(kind);

  it(
    "a reader paging changes(after:) meanwhile reads the final log: no gap, no duplicate, each object's entries in order",
    { timeout: 120_000 },
    async () => {
      const r = registry();
      await write(r, CREATE_STREAM, { name: "hot" });
      for (let w = 0; w < WRITERS; w++) await write(r, DECLARE_CLUSTER, { name: `w${w}-base` });

      const until = Date.now() + WRITE_MS;
      let writing = true;
      const writers = Promise.all(
        Array.from({ length: WRITERS }, (_, w) => writeRounds(r, w, until)),
      ).finally(() => (writing = false));
      const seen: Entry[] = [];
      let after: string | null = null;
      let pages = 0;
      while (writing) {
        const step = await readOn(r, after);
        seen.push(...step.read);
        after = step.after;
        pages += step.pages;
      }
      await writers;
      // Let the reconciler finish (its status entries are writes too), then read to the end.
      for (;;) {
        if ((await prismaOf(r.db.prisma).job.count()) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      seen.push(...(await readOn(r, after)).read);

      const final = (await readOn(r, null)).read;
      expect(pages).toBeGreaterThan(5); // the reader really read while writers committed
      expect(final.length).toBeGreaterThan(WRITERS * MIN_ROUNDS * 10);
      expect(seen).toEqual(final);
      const first = BigInt(final[0]!.seq);
      expect(final.map((e) => BigInt(e.seq) - first)).toEqual(final.map((_, i) => BigInt(i)));
      expect(await prismaOf(r.db.prisma).change.count()).toBe(final.length); // every entry numbered
      expectEachObjectInOrder(final);
      await expectOneDefault(r, "hot");
    },
  );
});

/**
 * An object's entries as its writers made them: its creation first, its generation never going
 * back, nothing after its removal. Entries of writers that waited for one another's row locks are
 * where an order other than commit order would show.
 */
function expectEachObjectInOrder(log: Entry[]): void {
  const last = new Map<string, Entry>();
  for (const entry of log) {
    const key = `${entry.entityType} ${entry.entityKey}`;
    const before = last.get(key);
    if (before === undefined) {
      expect(entry.action, `first entry of ${key}`).toBe("created");
    } else {
      expect(before.action, `${key} after its deletion`).not.toBe("deleted");
      expect(entry.generation, `${key} at seq ${entry.seq}`).toBeGreaterThanOrEqual(before.generation);
    }
    last.set(key, entry);
  }
}

async function expectOneDefault(r: TestRegistry, stream: string): Promise<void> {
  const { bindings } = await r.query<{ bindings: { nodes: { isDefault: boolean }[] } }>(
    `query($stream: String) { bindings(filter: { stream: $stream }, first: 500) { nodes { isDefault } } }`,
    { stream },
  );
  expect(bindings.nodes.length).toBeGreaterThan(0);
  expect(bindings.nodes.filter((b) => b.isDefault)).toHaveLength(1);
}

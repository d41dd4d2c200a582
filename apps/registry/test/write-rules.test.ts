import { describe, expect, it } from "vitest";
import { generateSecretKey, Keyring } from "@stream-registry/core";
import {
  lockStreamByName,
  removeStreamIfDone,
  updateStream,
  writeTransaction,
  type Tx,
} from "@stream-registry/store";
import {
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DELETE_BINDING,
  DELETE_CLUSTER,
  DELETE_STREAM,
  databaseKinds,
} from "@stream-registry/testkit";
import { useTestRegistry, type TestRegistry } from "./support/test-registry.ts";
import { prismaOf } from "@stream-registry/store/testing";

// Writers run in parallel (no global lock); the rules that read before they write hold by row
// locks and conditional writes (docs/architecture.md, "Writers in parallel").

const DOCUMENTS = {
  declareCluster: DECLARE_CLUSTER,
  deleteCluster: DELETE_CLUSTER,
  createStream: CREATE_STREAM,
  deleteStream: DELETE_STREAM,
  createBinding: CREATE_BINDING,
  deleteBinding: DELETE_BINDING,
};

/** The mutation's userErrors codes ([] when it succeeded); GraphQL errors fail the test. */
async function send(r: TestRegistry, name: keyof typeof DOCUMENTS, input: object): Promise<string[]> {
  const data = await r.query<Record<string, { userErrors: { code: string }[] }>>(DOCUMENTS[name], { input });
  return data[name]!.userErrors.map((e) => e.code);
}

async function bindingsOf(r: TestRegistry, stream: string) {
  const { bindings } = await r.query<{
    bindings: { nodes: { isDefault: boolean; cluster: { name: string }; status: { phase: string } }[] };
  }>(
    `query($stream: String) {
      bindings(filter: { stream: $stream }, first: 100) { nodes { isDefault cluster { name } status { phase } } } }`,
    { stream },
  );
  return bindings.nodes;
}

/** On PostgreSQL, until `count` sessions wait for a lock; PGlite has one session, so a moment. */
async function waitForLockWaiters(r: TestRegistry, kind: string, count: number): Promise<void> {
  if (kind !== "postgres") return new Promise((resolve) => setTimeout(resolve, 300));
  for (let tries = 0; tries < 200; tries++) {
    const [row] = await prismaOf(r.db.prisma).$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (row!.waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} sessions ever waited for a lock`);
}

const EIGHT = Array.from({ length: 8 }, (_, i) => i);

describe.each(databaseKinds)("read-then-write rules under concurrent writers on %s", (kind) => {
  const registry = useTestRegistry(kind, { RECONCILER_ENABLED: "false" });

  it("8 concurrent createBinding calls for one stream: all bound, exactly one default", async () => {
    const r = registry();
    await send(r, "createStream", { name: "one_default" });
    for (const i of EIGHT) await send(r, "declareCluster", { name: `def-c${i}` });
    const results = await Promise.all(
      EIGHT.map((i) => send(r, "createBinding", { stream: "one_default", cluster: `def-c${i}` })),
    );
    expect(results).toEqual(EIGHT.map(() => []));
    const bindings = await bindingsOf(r, "one_default");
    expect(bindings).toHaveLength(8);
    expect(bindings.filter((b) => b.isDefault)).toHaveLength(1);
  });

  it("first bindings that all waited for the stream's lock at once: exactly one default", async () => {
    const r = registry();
    await send(r, "createStream", { name: "held_default" });
    for (const i of EIGHT.slice(0, 4)) await send(r, "declareCluster", { name: `held-c${i}` });
    // A writer holds the stream's lock while four first bindings arrive: each binding's statement
    // began (and took its snapshot) before the others committed, so none of them sees another's
    // default; the database's one-default index must.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = writeTransaction(r.db.prisma, async (tx: Tx) => {
      await lockStreamByName(tx, "held_default", "write");
      locked();
      await held;
    });
    await isLocked;
    const binds = EIGHT.slice(0, 4).map((i) =>
      send(r, "createBinding", { stream: "held_default", cluster: `held-c${i}` }),
    );
    await waitForLockWaiters(r, kind, 4);
    release();
    await holder;
    expect(await Promise.all(binds)).toEqual([[], [], [], []]);
    const bindings = await bindingsOf(r, "held_default");
    expect(bindings).toHaveLength(4);
    expect(bindings.filter((b) => b.isDefault)).toHaveLength(1);
  });

  it("8 concurrent createBinding calls for one stream and cluster: one binding, seven ALREADY_EXISTS", async () => {
    const r = registry();
    await send(r, "createStream", { name: "one_binding" });
    await send(r, "declareCluster", { name: "dup-c" });
    const results = await Promise.all(
      EIGHT.map(() => send(r, "createBinding", { stream: "one_binding", cluster: "dup-c" })),
    );
    expect(results.filter((codes) => codes.length === 0)).toHaveLength(1);
    expect(results.flat()).toEqual(EIGHT.slice(1).map(() => "ALREADY_EXISTS"));
    expect(await bindingsOf(r, "one_binding")).toHaveLength(1);
  });

  it("deleting defaults while others bind: the live bindings keep exactly one default", async () => {
    const r = registry();
    await send(r, "createStream", { name: "moving_default" });
    for (const i of EIGHT) await send(r, "declareCluster", { name: `mov-c${i}` });
    for (const i of EIGHT.slice(0, 4)) {
      await send(r, "createBinding", { stream: "moving_default", cluster: `mov-c${i}` });
    }
    const results = await Promise.all([
      ...EIGHT.slice(0, 3).map((i) =>
        send(r, "deleteBinding", { stream: "moving_default", cluster: `mov-c${i}` }),
      ),
      ...EIGHT.slice(4).map((i) =>
        send(r, "createBinding", { stream: "moving_default", cluster: `mov-c${i}` }),
      ),
    ]);
    expect(results).toEqual(results.map(() => []));
    const live = (await bindingsOf(r, "moving_default")).filter((b) => b.status.phase !== "DELETING");
    expect(live).toHaveLength(5);
    expect(live.filter((b) => b.isDefault)).toHaveLength(1);
  });

  it("8 concurrent updates from the same generation: exactly one is written", async () => {
    const r = registry();
    await send(r, "createStream", { name: "one_update" });
    const { prisma } = r.db;
    const read = await prismaOf(prisma).stream.findUniqueOrThrow({ where: { name: "one_update" } });
    const current = { ...read, config: {}, producerConfig: {}, consumerConfig: {} };
    const keyring = new Keyring([generateSecretKey("k1")]);
    const by = { actor: "test", secrets: () => false, keyring, fqnPrefix: "/" };
    const written = await Promise.all(
      EIGHT.map((i) =>
        writeTransaction(prisma, (tx) =>
          updateStream(
            tx,
            current,
            { config: { "acme.kafka": { writer: i } }, producerConfig: {}, consumerConfig: {} },
            by,
          ),
        ),
      ),
    );
    expect(written.filter((stream) => stream !== null)).toHaveLength(1);
    const after = await prismaOf(prisma).stream.findUniqueOrThrow({ where: { name: "one_update" } });
    expect(after.generation).toBe(read.generation + 1);
  });

  it("a cluster deleted while bindings are created on it: each call is refused or done, none fails", async () => {
    const r = registry();
    for (const i of EIGHT) await send(r, "createStream", { name: `race_s${i}` });
    await send(r, "declareCluster", { name: "race-c" });
    const results = await Promise.all([
      send(r, "deleteCluster", { name: "race-c" }),
      ...EIGHT.map((i) => send(r, "createBinding", { stream: `race_s${i}`, cluster: "race-c" })),
    ]);
    const [deleted, ...created] = results;
    if (deleted!.length === 0) {
      // Deleted first: every create that came after found no cluster.
      expect(created.filter((codes) => codes.length === 0)).toEqual([]);
      expect(created.flat().every((code) => code === "NOT_FOUND")).toBe(true);
    } else {
      expect(deleted).toEqual(["IN_USE"]);
    }
    const bound = await Promise.all(EIGHT.map((i) => bindingsOf(r, `race_s${i}`)));
    expect(bound.flat().length).toBe(created.filter((codes) => codes.length === 0).length);
  });
});

describe("read-then-write rules that need two transactions at once on postgres", () => {
  const registry = useTestRegistry("postgres", { RECONCILER_ENABLED: "false" });

  it("a cascading delete's last two bindings removed at once: the stream goes with them", async () => {
    const r = registry();
    await send(r, "createStream", { name: "skew" });
    for (const cluster of ["skew-c1", "skew-c2"]) {
      await send(r, "declareCluster", { name: cluster });
      await send(r, "createBinding", { stream: "skew", cluster });
    }
    expect(await send(r, "deleteStream", { name: "skew", cascade: true })).toEqual([]);
    const { prisma } = r.db;
    const bindings = await prismaOf(prisma).binding.findMany({ where: { stream: { name: "skew" } } });
    expect(bindings).toHaveLength(2);

    // Both remove their binding before either looks whether the stream has any left.
    let arrived = 0;
    let release!: () => void;
    const bothRemoved = new Promise<void>((resolve) => (release = resolve));
    const removeOne = (id: string, streamId: string) =>
      writeTransaction(prisma, async (tx: Tx) => {
        await prismaOf(tx).binding.delete({ where: { id } });
        if (++arrived === 2) release();
        await bothRemoved;
        await removeStreamIfDone(tx, streamId, "test");
      });
    await Promise.all(bindings.map((b) => removeOne(b.id, b.streamId)));
    expect(await prismaOf(prisma).stream.findUnique({ where: { name: "skew" } })).toBeNull();
  });

  it("two writers that deadlock are both written: the one the database aborts runs again", async () => {
    const r = registry();
    for (const name of ["dead_a", "dead_b"]) await send(r, "createStream", { name });
    const { prisma } = r.db;
    let arrived = 0;
    let release!: () => void;
    const bothLocked = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    // Each locks one stream, then waits for the other's: a cycle only a retry resolves.
    const lockBoth = (first: string, second: string) =>
      writeTransaction(prisma, async (tx: Tx) => {
        attempts++;
        await lockStreamByName(tx, first, "write");
        if (++arrived === 2) release();
        await bothLocked;
        await lockStreamByName(tx, second, "write");
        await prismaOf(tx).stream.update({ where: { name: first }, data: { generation: { increment: 1 } } });
      });
    await Promise.all([lockBoth("dead_a", "dead_b"), lockBoth("dead_b", "dead_a")]);
    expect(attempts).toBe(3);
    const streams = await prismaOf(prisma).stream.findMany({ where: { name: { in: ["dead_a", "dead_b"] } } });
    expect(streams.map((s) => s.generation)).toEqual([2, 2]);
  });
});

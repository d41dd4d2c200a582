import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  enqueueJob,
  leaseJobs,
  migrate,
  openDatabase,
  writeTransaction,
  type Database,
} from "@stream-registry/store";
import { createTestDatabase, databaseKinds, type TestDatabase, eventually } from "@stream-registry/testkit";
import type { ReconcilerConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { handlersByKind } from "../src/reconciler/handler.ts";
import { Reconciler } from "../src/reconciler/reconciler.ts";
import { Resync } from "../src/reconciler/resync.ts";
import { FakePlatform } from "./kernel/fake-platform.ts";
import { REALIZED_KINDS } from "../src/reconciler/kinds.ts";
import { parentLinks } from "./kernel/parent-links.ts";
import {
  bindings,
  connectors,
  statusOf,
  widgets,
  type Status,
  type Subject,
  type SubjectFactory,
} from "./kernel/subjects.ts";
import { WIDGETS } from "./kernel/widgets.ts";
import { prismaOf } from "@stream-registry/store/testing";

const CONFIG: ReconcilerConfig = {
  enabled: true,
  concurrency: 4,
  leaseMs: 3_000,
  pollMs: 50,
  retryBaseMs: 200,
  retryMaxMs: 2_000,
  resyncMs: 60_000,
  resyncConcurrency: 2,
  batchSize: 10,
};
const logger = createLogger("silent");

/**
 * The kernel's subjects: each kind the registry registers (REALIZED_KINDS) and a kind the test
 * defines on its own. A kind whose handler has no batch calls, or no create journal, leaves out
 * the cases of them (the last case checks that its handler says so).
 */
const SUBJECTS: Record<string, { make: SubjectFactory; batches: boolean; journaled: boolean }> = {
  binding: { make: bindings, batches: true, journaled: true },
  // One live link at a time (parent_link_one_live), and registering again is idempotent.
  parent_link: { make: parentLinks, batches: false, journaled: false },
  // Sources and sinks: one handler, no batch calls (Connect has none).
  source: { make: connectors("source"), batches: false, journaled: true },
  sink: { make: connectors("sink"), batches: false, journaled: true },
  [WIDGETS.kind]: { make: widgets, batches: true, journaled: true },
};
const KINDS = [...REALIZED_KINDS.map(({ kind }) => kind), WIDGETS.kind];
/** A case of a kind it applies to; for another kind, no case at all (rather than a skipped one). */
const itIf = (applies: boolean): ((name: string, run: () => Promise<void>) => void) =>
  applies ? (name, run) => it(name, run) : () => {};

describe("the reconcile kernel's suite", () => {
  it("has a subject for every kind the registry registers", () => {
    expect(KINDS.filter((kind) => !(kind in SUBJECTS))).toEqual([]);
  });
});

// The kernel's guarantees, proven for every kind the registry registers and one of the test's own.
describe.each(databaseKinds)("the reconcile kernel on %s", (databaseKind) => {
  describe.each(KINDS.filter((kind) => kind in SUBJECTS).map((kind) => [kind, SUBJECTS[kind]!] as const))(
    "for %s",
    (_kind, { make: makeSubject, batches, journaled }) => {
      const open: { database?: TestDatabase; db?: Database; kernels: Reconciler[] } = { kernels: [] };
      const platform = new FakePlatform();
      let subject: Subject;
      let n = 0;

      beforeAll(async () => {
        open.database = await createTestDatabase(databaseKind, "kernel");
        open.db = await openDatabase({ url: open.database.url });
        await migrate(open.db);
        subject = await makeSubject(open.db, platform);
      });
      afterEach(async () => {
        platform.release();
        await Promise.all(open.kernels.splice(0).map((kernel) => kernel.stop(2_000)));
      });
      afterAll(async () => {
        await open.db?.close();
        await open.database?.drop();
      });

      const db = () => open.db!;
      const fresh = (what: string) => `${what}_${++n}`;
      function startKernel(config: Partial<ReconcilerConfig> = {}): Reconciler {
        const kernel = new Reconciler(
          { db: db() },
          handlersByKind([subject.handler]),
          { ...CONFIG, ...config },
          logger,
        );
        kernel.start();
        open.kernels.push(kernel);
        return kernel;
      }
      const status = (id: string) => statusOf(db(), subject.handler.resource, id);
      const until = (id: string, accept: (s: Status | null) => boolean, what: string) =>
        eventually(
          async () => {
            const s = await status(id);
            return accept(s) ? s : undefined;
          },
          20_000,
          what,
        );
      const online = (id: string, generation: number) =>
        until(
          id,
          (s) => s?.phase === "ONLINE" && s.observedGeneration === generation,
          `ONLINE at ${generation}`,
        );
      const made = (name: string, size: number) =>
        subject.realized?.(name, size) ?? `made as {"size":${size}}`;
      const changed = (name: string, size: number) =>
        subject.realized?.(name, size) ?? `now {"size":${size}}`;
      const statusEntries = (name: string) =>
        prismaOf(db().prisma).change.findMany({
          where: { entityType: subject.kind, entityKey: { endsWith: name }, action: "status" },
          orderBy: { id: "asc" }, // insertion order; seq is given when the log is read
        });

      it("realizes a resource: ONLINE with its observed generation, its observation stored, its job done", async () => {
        startKernel();
        const name = fresh("made");
        const id = await subject.create(name, 1);
        expect(await online(id, 1)).toMatchObject({
          generation: 1,
          message: made(name, 1),
          pendingCreates: [],
        });
        expect(platform.resources.get(name)).toEqual(subject.spec(1));
        const { observations, observationKey } = subject.handler.resource;
        const [observed] = await prismaOf(db().prisma).$queryRaw<{ message: string }[]>`
        SELECT message FROM ${observations} WHERE ${observationKey} = ${id}::uuid`;
        expect(observed?.message).toBe(made(name, 1));
        expect(await prismaOf(db().prisma).job.count({ where: { targetId: id } })).toBe(0);
        expect((await statusEntries(name)).map((entry) => entry.data)).toEqual([{ phase: "ONLINE" }]);
      });

      itIf(batches)(
        "realizes the due creates of a batch with one provider call, a refusal failing only its own",
        async () => {
          const names = Array.from({ length: 8 }, () => fresh("batched"));
          platform.fail("realize", names[3]!, "permanent");
          const ids = [];
          for (const name of names) ids.push(await subject.create(name, 1));
          startKernel();
          for (const [i, id] of ids.entries()) {
            if (i === 3) await until(id, (s) => s?.phase === "FAILED", "the refused one FAILED");
            else await online(id, 1);
          }
          const batches = platform.batches.filter((batch) => batch.some((name) => names.includes(name)));
          expect(batches.map((batch) => [...batch].sort())).toEqual([[...names].sort()]);
          expect((await status(ids[3]!))!.message).toBe("create refused for good");
        },
      );

      itIf(batches)(
        "removes the due deletes of a batch with one provider call, a refusal failing only its own",
        async () => {
          const names = Array.from({ length: 8 }, () => fresh("unbatched"));
          const kernel = startKernel();
          const ids = [];
          for (const name of names) ids.push(await subject.create(name, 1));
          for (const id of ids) await online(id, 1);
          await kernel.stop(5_000);
          platform.fail("remove", names[5]!, "permanent");
          for (const name of names) await subject.remove(name);
          startKernel();
          for (const [i, id] of ids.entries()) {
            if (i !== 5) await until(id, (s) => s === null, "its row gone");
          }
          // The refused one stays, DELETING with the provider's words, and is retried until it goes.
          await until(ids[5]!, (s) => s === null, "the refused one's row gone at last");
          expect(names.filter((name) => platform.resources.has(name))).toEqual([]);
          const batches = platform.removeBatches.filter((batch) =>
            batch.some((name) => names.includes(name)),
          );
          expect([...batches[0]!].sort()).toEqual([...names].sort());
          expect(platform.count("remove", names[5]!)).toBe(2);
        },
      );

      it("retries transient failures with growing backoff, showing them, then is ONLINE", async () => {
        startKernel();
        const name = fresh("flaky");
        platform.fail("realize", name, "transient", "transient", "transient");
        const id = await subject.create(name, 1);
        const retrying = await until(id, (s) => /failed for now/.test(s?.message ?? ""), "a retry message");
        expect(retrying).toMatchObject({ phase: "PENDING", observedGeneration: null });
        expect(retrying!.message).toMatch(/^attempt \d failed: create failed for now; retrying in \d+\.\ds$/);
        await online(id, 1);
        const times = platform.calls.filter((call) => call.name === name).map((call) => call.at);
        expect(times).toHaveLength(4);
        // Equal jitter: at least half of 200, 400 and 800 ms.
        const gaps = times.slice(1).map((at, i) => at - times[i]!);
        gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(100 * 2 ** i - 20));
      });

      it("makes a permanent failure FAILED, and a new desired state tries again", async () => {
        startKernel();
        const name = fresh("doomed");
        platform.fail("realize", name, "permanent");
        const id = await subject.create(name, 1);
        expect(await until(id, (s) => s?.phase === "FAILED", "FAILED")).toMatchObject({
          generation: 1,
          observedGeneration: null,
          message: "create refused for good",
        });
        expect(await prismaOf(db().prisma).job.count({ where: { targetId: id } })).toBe(0);
        await subject.change(name, 2);
        await online(id, 2);
        expect(platform.resources.get(name)).toEqual(subject.spec(2));
      });

      it("never abandons a delete: refused for good, it is retried until the resource is gone", async () => {
        startKernel();
        const name = fresh("sticky");
        const id = await subject.create(name, 1);
        await online(id, 1);
        platform.fail("remove", name, "permanent", "permanent");
        await subject.remove(name);
        await until(
          id,
          (s) => s?.phase === "DELETING" && /refused for good/.test(s.message ?? ""),
          "a refused delete",
        );
        await until(id, (s) => s === null, "the row gone");
        expect(platform.resources.has(name)).toBe(false);
        expect(platform.count("remove", name)).toBe(3);
      });

      it("lets no older result overwrite a newer desired state", async () => {
        startKernel();
        const name = fresh("racing");
        platform.fail("realize", name, "hang");
        const id = await subject.create(name, 1);
        await eventually(
          async () => (platform.count("create", name) === 1 ? true : undefined),
          10_000,
          "the create",
        );
        await subject.change(name, 2);
        platform.release();
        expect(await online(id, 2)).toMatchObject({ generation: 2, message: changed(name, 2) });
        expect(platform.resources.get(name)).toEqual(subject.spec(2));
        // Generation 1's create finished after generation 2 was asked for: it never made it ONLINE.
        const entries = await statusEntries(name);
        expect(entries.map((entry) => [entry.generation, entry.data])).toEqual([[2, { phase: "ONLINE" }]]);
      });

      it("hands the job of a crashed worker to another kernel once its lease expires", async () => {
        const name = fresh("orphan");
        const id = await subject.create(name, 1);
        const leasedAt = Date.now();
        const leased = await leaseJobs(db().prisma, "crashed-worker", 100, 1_500);
        expect(leased.map((job) => job.targetId)).toContain(id);
        startKernel();
        await online(id, 1);
        expect(platform.calls.find((call) => call.name === name)!.at - leasedAt).toBeGreaterThanOrEqual(
          1_400,
        );
      });

      itIf(journaled)(
        "adopts through the journal what a create whose outcome was lost made, in another kernel",
        async () => {
          // A long retry delay: the change of desired state comes before the retry.
          const first = startKernel({ retryBaseMs: 60_000, retryMaxMs: 60_000 });
          const name = fresh("lost");
          platform.fail("realize", name, "lose");
          const id = await subject.create(name, 1);
          await until(id, (s) => /outcome was lost/.test(s?.message ?? ""), "the lost create");
          expect(platform.resources.get(name)).toEqual(subject.spec(1));
          expect((await status(id))!.pendingCreates).toMatchObject([{ generation: 1 }]);
          await first.stop(2_000);

          await subject.change(name, 2);
          startKernel();
          // Without the journal, generation 2's create would find a resource made from other settings.
          expect(await online(id, 2)).toMatchObject({ generation: 2, pendingCreates: [] });
          expect(platform.resources.get(name)).toEqual(subject.spec(2));
          expect(platform.count("update", name)).toBe(1);
        },
      );

      it("resyncs: a vanished resource goes back to PENDING and is made again", async () => {
        const kernel = startKernel();
        const name = fresh("vanishing");
        const id = await subject.create(name, 1);
        await online(id, 1);
        await kernel.stop(2_000);
        platform.resources.delete(name);

        const handlers = handlersByKind([subject.handler]);
        const resync = new Resync(
          { db: db(), wakeReconciler: () => {} },
          handlers,
          { ...CONFIG, resyncMs: 1 },
          logger,
        );
        await resync.resyncDue(new AbortController().signal);
        const vanished = await status(id);
        expect(vanished).toMatchObject({ phase: "PENDING", generation: 1, observedGeneration: null });
        expect(vanished!.message).toMatch(/^missing on .+ \(found by resync\); re-creating$/);

        startKernel();
        await online(id, 1);
        expect(platform.resources.get(name)).toEqual(subject.spec(1));
        expect(platform.count("create", name)).toBe(2);
      });

      it("leaves out only the cases its handler has no calls for", async () => {
        const { handler } = subject;
        expect(Boolean(handler.createMany && handler.removeMany && handler.batchKey)).toBe(batches);
        const name = fresh("declared");
        const id = await subject.create(name, 1);
        expect(handler.journaled((await handler.load(id))!)).toBe(journaled);
        await subject.remove(name);
      });
    },
  );

  describe("with a job of a kind no handler serves", () => {
    const open: { database?: TestDatabase; db?: Database; kernel?: Reconciler } = {};
    beforeAll(async () => {
      open.database = await createTestDatabase(databaseKind, "kernel");
      open.db = await openDatabase({ url: open.database.url });
      await migrate(open.db);
    });
    afterAll(async () => {
      await open.kernel?.stop(2_000);
      await open.db?.close();
      await open.database?.drop();
    });

    it("logs it and retries it with backoff, and goes on with the others", async () => {
      const platform = new FakePlatform();
      const subject = await widgets(open.db!, platform);
      await writeTransaction(open.db!.prisma, (tx) => enqueueJob(tx, "nonesuch", "n-1"));
      open.kernel = new Reconciler({ db: open.db! }, handlersByKind([subject.handler]), CONFIG, logger);
      open.kernel.start();
      const id = await subject.create("fine", 1);
      await eventually(
        async () => ((await statusOf(open.db!, WIDGETS, id))?.phase === "ONLINE" ? true : undefined),
        20_000,
        "the widget ONLINE",
      );
      const job = await eventually(
        async () => {
          const row = await prismaOf(open.db!.prisma).job.findFirst({ where: { kind: "nonesuch" } });
          return row && row.attempts >= 2 ? row : undefined;
        },
        20_000,
        "a second attempt",
      );
      expect(job.lastError).toBe('no reconcile handler for job kind "nonesuch" in this registry');
      expect(job.runAt.getTime()).toBeGreaterThan(Date.now() - 1_000);
    });
  });
});

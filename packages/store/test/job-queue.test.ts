import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import { openDatabase, type Database } from "../src/database.ts";
import {
  completeJob,
  enqueueJob,
  leaseJobs,
  releaseAllLeases,
  retryJob,
  type LeasedJob,
} from "../src/job-queue.ts";
import { migrate } from "../src/migrate.ts";
import { inTransaction, prismaOf } from "../src/testing.ts";

/** A migrated database of `kind` for this file, emptied of jobs before each test. */
function useJobDatabase(kind: (typeof databaseKinds)[number]) {
  const handles: { testDatabase?: TestDatabase; db?: Database; other?: Database } = {};
  beforeAll(async () => {
    handles.testDatabase = await createTestDatabase(kind, "jobs");
    handles.db = await openDatabase({ url: handles.testDatabase.url });
    await migrate(handles.db);
    // A second process's view of the same database (PGlite has a single connection).
    if (handles.testDatabase.url) handles.other = await openDatabase({ url: handles.testDatabase.url });
  });
  beforeEach(async () => void (await prismaOf(handles.db!.prisma).job.deleteMany()));
  afterAll(async () => {
    await handles.other?.close();
    await handles.db?.close();
    await handles.testDatabase?.drop();
  });
  return handles;
}

describe.each(databaseKinds)("job queue on %s", (kind) => {
  const handles = useJobDatabase(kind);
  const enqueue = (target: string) => inTransaction(handles.db!.prisma, (tx) => enqueueJob(tx, "t", target));
  const row = (target: string) =>
    prismaOf(handles.db!.prisma).job.findUnique({
      where: { kind_targetId: { kind: "t", targetId: target } },
    });
  const lease = (worker: string, limit = 10) => leaseJobs(handles.db!.prisma, worker, limit, 60_000);

  it("keeps one row per target and bumps its sequence on every request", async () => {
    await enqueue("a:1");
    await enqueue("a:1");
    expect(await row("a:1")).toMatchObject({ seq: 2, attempts: 0, leasedBy: null });
  });

  it("leases a job once, and not again while the lease holds", async () => {
    await enqueue("b:1");
    const [job] = await lease("b:w1");
    expect(job).toMatchObject({ targetId: "b:1", attempts: 1 });
    expect(await lease("b:w2")).toEqual([]);
    await completeJob(handles.db!.prisma, job!, "b:w1");
    expect(await row("b:1")).toBeNull();
  });

  it("leases only the kind asked for, or none of the kinds left out", async () => {
    const prisma = handles.db!.prisma;
    await inTransaction(prisma, async (tx) => {
      await enqueueJob(tx, "kind-a", "k:1");
      await enqueueJob(tx, "kind-b", "k:2");
      await enqueueJob(tx, "kind-c", "k:3");
    });
    // Other tests' jobs (kind "t") may be due as well: only these three kinds are looked at.
    const kinds = (jobs: LeasedJob[]) =>
      jobs
        .map((job) => job.kind)
        .filter((kind) => kind.startsWith("kind-"))
        .sort();
    expect(kinds(await leaseJobs(prisma, "k:w1", 10, 60_000, { notKinds: ["kind-a", "kind-c"] }))).toEqual([
      "kind-b",
    ]);
    expect(kinds(await leaseJobs(prisma, "k:w2", 10, 60_000, { kind: "kind-c" }))).toEqual(["kind-c"]);
    expect(kinds(await leaseJobs(prisma, "k:w3", 10, 60_000))).toEqual(["kind-a"]);
  });

  it("keeps a job that was requested again while it ran, due at once", async () => {
    await enqueue("c:1");
    const [job] = (await lease("c:w1")) as [LeasedJob];
    await enqueue("c:1"); // the desired state changed during the provider call
    await completeJob(handles.db!.prisma, job, "c:w1");
    expect(await row("c:1")).toMatchObject({ seq: job.seq + 1, leasedBy: null });
    expect(await lease("c:w1")).toHaveLength(1);
  });

  it("schedules a retry later, but at once if a newer request arrived", async () => {
    await enqueue("d:1");
    const [first] = (await lease("d:w1")) as [LeasedJob];
    await retryJob(handles.db!.prisma, first, "d:w1", 60_000, "boom");
    expect(await row("d:1")).toMatchObject({ lastError: "boom", leasedBy: null });
    expect(await lease("d:w1")).toEqual([]);

    await enqueue("d:1");
    const [second] = (await lease("d:w1")) as [LeasedJob];
    await enqueue("d:1");
    await retryJob(handles.db!.prisma, second, "d:w1", 60_000, "boom again");
    expect(await lease("d:w1")).toHaveLength(1);
  });

  it("makes a job due again when its worker's lease expires (a crashed worker)", async () => {
    await enqueue("e:1");
    expect(await leaseJobs(handles.db!.prisma, "e:dead", 1, 50)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const [job] = await lease("e:w2");
    expect(job).toMatchObject({ targetId: "e:1", attempts: 2 });
  });

  it("gives back all leases of a stopping worker", async () => {
    await enqueue("f:1");
    await enqueue("f:2");
    expect(await lease("f:w1")).toHaveLength(2);
    expect(await releaseAllLeases(handles.db!.prisma, "f:w1")).toBe(2);
    expect(await lease("f:w2")).toHaveLength(2);
  });
});

describe("job queue shared by two processes on postgres", () => {
  const handles = useJobDatabase("postgres");

  it("hands each job to exactly one of them when both lease at once", async () => {
    const { db, other } = handles as Required<typeof handles>;
    await inTransaction(db.prisma, async (tx) => {
      for (let i = 0; i < 40; i++) await enqueueJob(tx, "t", `g:${i}`);
    });
    const [mine, theirs] = await Promise.all([
      leaseJobs(db.prisma, "g:w1", 25, 60_000),
      leaseJobs(other.prisma, "g:w2", 25, 60_000),
    ]);
    const ids = [...mine, ...theirs].map((j) => j.targetId);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
  });
});

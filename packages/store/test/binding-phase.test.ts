import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode, Phase } from "@stream-registry/core";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import { writeBindingPhase } from "../src/binding-phase.ts";
import { openDatabase, type Database } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { inTransaction, prismaOf } from "../src/testing.ts";

describe.each(databaseKinds)("writeBindingPhase on %s", (kind) => {
  const handles: { testDatabase?: TestDatabase; db?: Database } = {};
  beforeAll(async () => {
    handles.testDatabase = await createTestDatabase(kind, "phases");
    handles.db = await openDatabase({ url: handles.testDatabase.url });
    await migrate(handles.db);
  });
  afterAll(async () => {
    await handles.db?.close();
    await handles.testDatabase?.drop();
  });

  let n = 0;
  async function binding(phase: Phase) {
    const prisma = handles.db!.prisma;
    const cluster = await prismaOf(prisma).cluster.create({
      data: { name: `c${++n}`, provider: "registry-only" },
    });
    const stream = await prismaOf(prisma).stream.create({ data: { name: `s${n}` } });
    // A fixture: rows in every phase, written as a test may and stores may not.
    return prismaOf(prisma).binding.create({ data: { streamId: stream.id, clusterId: cluster.id, phase } });
  }
  const reread = (id: string) => prismaOf(handles.db!.prisma).binding.findUniqueOrThrow({ where: { id } });

  it("writes the phase nextPhase gives, with the fields beside it", async () => {
    const row = await binding(Phase.PENDING);
    const result = await inTransaction(handles.db!.prisma, (tx) =>
      writeBindingPhase(tx, { id: row.id }, { from: row.phase, event: "realized" }, { message: "made" }),
    );
    expect(result).toEqual({ phase: Phase.ONLINE, written: true });
    expect(await reread(row.id)).toMatchObject({ phase: Phase.ONLINE, message: "made" });
  });

  it("refuses an invalid transition and writes nothing", async () => {
    const row = await binding(Phase.DELETING);
    const write = inTransaction(handles.db!.prisma, (tx) =>
      writeBindingPhase(
        tx,
        { id: row.id },
        { from: row.phase, event: "desired-changed" },
        { message: "edited" },
      ),
    );
    await expect(write).rejects.toMatchObject({ code: ErrorCode.BEING_DELETED });
    expect(await reread(row.id)).toMatchObject({ phase: Phase.DELETING, message: null });
  });

  it("writes nothing when the row no longer matches the target", async () => {
    const row = await binding(Phase.DELETING);
    const result = await inTransaction(handles.db!.prisma, (tx) =>
      writeBindingPhase(
        tx,
        { id: row.id, phase: { not: Phase.DELETING } },
        { from: Phase.PENDING, event: "realized" },
      ),
    );
    expect(result.written).toBe(false);
    expect((await reread(row.id)).phase).toBe(Phase.DELETING);
  });
});

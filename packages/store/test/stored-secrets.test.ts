import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreSecretRule, generateSecretKey, Keyring } from "@stream-registry/core";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@stream-registry/testkit";
import { openDatabase, type Database } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { sealStoredSecrets } from "../src/secret-sealing.ts";
import { prismaOf } from "../src/testing.ts";

// The start-up data migration of issue 19: what an older registry stored in clear (a binding's
// credential under a key no rule named, a copy of a child's document in the index, the change
// log) is sealed or rewritten, once.

const BEARER = "Bearer tok-old-index-0001";
const PEM = "-----BEGIN PRIVATE KEY-----\nMIIoldBindingKey0002\n-----END PRIVATE KEY-----";
const SECRETS = ["tok-old-index-0001", "MIIoldBindingKey0002"];
const FP = /^\*{8}:[0-9a-f]{12}$/;

describe.each(databaseKinds)("sealing what was stored in clear, on %s", (kind) => {
  const handles: { testDatabase?: TestDatabase; db?: Database } = {};
  beforeAll(async () => {
    handles.testDatabase = await createTestDatabase(kind, "stored");
    handles.db = await openDatabase({ url: handles.testDatabase.url });
    await migrate(handles.db);
  });
  afterAll(async () => {
    await handles.db?.close();
    await handles.testDatabase?.drop();
  });
  const prisma = () => handles.db!.prisma;
  const by = { secrets: coreSecretRule, keyring: new Keyring([generateSecretKey("k1")]) };

  async function rows(): Promise<string> {
    const found = await prismaOf(prisma()).$queryRawUnsafe<{ row: string }[]>(`
      SELECT row_to_json(b)::text AS row FROM binding b
      UNION ALL SELECT row_to_json(i)::text FROM index_entry i
      UNION ALL SELECT row_to_json(l)::text FROM change l`);
    return found.map((row) => row.row).join("\n");
  }

  it("seals a binding's, rewrites index documents and change-log entries, and then finds nothing", async () => {
    const db = prisma();
    const cluster = await prismaOf(db).cluster.create({ data: { name: "c1", provider: "registry-only" } });
    const stream = await prismaOf(db).stream.create({ data: { name: "orders" } });
    const binding = await prismaOf(db).binding.create({
      data: { streamId: stream.id, clusterId: cluster.id, config: { tls: { notes: PEM, region: "eu" } } },
    });
    const child = await prismaOf(db).childRegistry.create({
      data: {
        registryId: "7c2b6a62-0c1e-4c3b-9f5e-0a4c1c2d3e4f",
        name: "aws",
        url: "http://aws/graphql",
        sdl: "",
        version: "1",
      },
    });
    const doc = { name: "remote", config: { odd: { header: BEARER, team: "a" } } };
    await prismaOf(db).indexEntry.create({
      data: {
        childId: child.id,
        kind: "stream",
        namespace: "/aws",
        name: "remote",
        createdAt: new Date(),
        doc,
      },
    });
    await prismaOf(db).change.create({
      data: {
        entityType: "stream",
        entityKey: "remote",
        action: "created",
        generation: 1,
        actor: "x",
        data: doc,
      },
    });
    for (const secret of SECRETS) expect(await rows()).toContain(secret);

    const report = await sealStoredSecrets(db, by);
    expect(report).toEqual({
      sealed: ['binding of stream "orders" on cluster "c1"'],
      failed: [],
      redacted: { changes: 1, documents: 1 },
    });
    const text = await rows();
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const sealed = await prismaOf(db).binding.findUniqueOrThrow({ where: { id: binding.id } });
    expect(sealed.config).toEqual({ tls: { notes: expect.stringMatching(FP), region: "eu" } });
    const indexed = await prismaOf(db).indexEntry.findFirstOrThrow({ where: { name: "remote" } });
    expect(indexed.doc).toEqual({ name: "remote", config: { odd: { header: "********", team: "a" } } });
    expect(await prismaOf(db).secretEnvelope.count({ where: { bindingId: binding.id } })).toBe(1);

    expect(await sealStoredSecrets(db, by)).toEqual({
      sealed: [],
      failed: [],
      redacted: { changes: 0, documents: 0 },
    });
  });
});

import { expect, it, onTestFinished } from "vitest";
import { createTestDatabase } from "@stream-registry/testkit";
import { openDatabase } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { openRegistrySettings } from "../src/registry-settings.ts";
import { prismaOf } from "../src/testing.ts";

// PostgreSQL: processes starting at once on a new database (PGlite is one process's).
it("gives every process starting at once on a new database the same registry, made once", async () => {
  const database = await createTestDatabase("postgres", "settings");
  onTestFinished(() => database.drop());
  const processes = await Promise.all(
    Array.from({ length: 6 }, () => openDatabase({ url: database.url, poolSize: 2 })),
  );
  onTestFinished(async () => void (await Promise.all(processes.map((db) => db.close()))));
  await migrate(processes[0]!);
  const settings = await Promise.all(processes.map((db) => openRegistrySettings(db.prisma)));
  expect(new Set(settings.map((s) => s.registryId)).size).toBe(1);
  expect(settings[0]).toMatchObject({ name: null, generation: 1 });
  expect(await prismaOf(processes[0]!.prisma).registrySettings.count()).toBe(1);
});

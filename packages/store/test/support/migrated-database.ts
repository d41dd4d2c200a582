import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@stream-registry/testkit";
import { openDatabase, type Database } from "../../src/database.ts";
import { migrate } from "../../src/migrate.ts";

/**
 * A fresh database of `kind` with the registry's tables, opened for the whole test file and
 * dropped after it. Returns a getter: the database is made in beforeAll.
 */
export function useMigratedDatabase(kind: DatabaseKind, label: string): () => Database {
  let testDatabase: TestDatabase | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind, label);
    db = await openDatabase({ url: testDatabase.url });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await testDatabase?.drop();
  });
  return () => {
    if (!db) throw new Error("database not open (beforeAll failed?)");
    return db;
  };
}

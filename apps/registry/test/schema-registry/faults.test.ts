import { describe, expect, it } from "vitest";
import { createAgain, dropUnderneath, eventually, type TestDatabase } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { avroRecord, expectError, schemaRegistryClient } from "../support/schema-registry-client.ts";

/**
 * The REST API when the registry's PostgreSQL database goes away (issue 12): Confluent's 50001
 * with the request id and nothing of the database's own words, then service again once it is back.
 */
describe("schema registry when its database fails", () => {
  const registry = useRegistryProcess("postgres", { NODE_ENV: "production" });
  const sr = () => schemaRegistryClient(registry().url);

  it("answers 50001 while the database is gone, and recovers without a restart", async () => {
    await sr().register("before-value", avroRecord("Before", ["a"]));
    const database = { kind: "postgres", url: registry().databaseUrl } as TestDatabase;
    await dropUnderneath(database);
    try {
      for (const response of [
        await sr().get("/subjects"),
        await sr().post("/subjects/during-value/versions", { schema: '"string"' }),
      ]) {
        expectError(
          response,
          500,
          50001,
          /^Error in the backend data store: the registry's database is unavailable/,
        );
        expect(response.body.message).toMatch(/request id [0-9a-f-]{36}\)$/);
        for (const leak of [
          new URL(registry().databaseUrl!).pathname.slice(1),
          "Prisma",
          "3D000",
          "127.0.0.1",
        ]) {
          expect(response.body.message).not.toContain(leak);
        }
      }
    } finally {
      await createAgain(database);
    }
    // The migrations are applied again on the next request that notices; the data is gone.
    const subjects = await eventually(async () => {
      const response = await sr().get("/subjects");
      return response.status === 200 ? (response.body as string[]) : undefined;
    }, 30_000);
    expect(subjects).toEqual([]);
  });
});

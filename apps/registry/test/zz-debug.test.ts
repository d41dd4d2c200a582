import { it } from "vitest";
import { createTestDatabase } from "@stream-registry/testkit";
import { startTestRegistry } from "./support/test-registry.ts";

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
it("debug", async () => {
  await using database = await createTestDatabase("postgres", "dbg");
  const registry = await startTestRegistry({ database, env: { NODE_ENV: "production" } });
  const r = registry.reconciler as unknown as Record<string, unknown> & { wake(): void };
  await registry.db.close();
  for (let i = 0; i < 6; i++) {
    r.lastLeaseError = "marker";
    await sleep(400);
    console.log(i, r.lastLeaseError, registry.logs.length);
  }
}, 60000);

import { it } from "vitest";
import { createTestDatabase } from "@stream-registry/testkit";
import { startTestRegistry } from "./support/test-registry.ts";

it.each(["postgres", "pglite"] as const)("debug %s", async (kind) => {
  await using database = await createTestDatabase(kind, "dbg");
  const registry = await startTestRegistry({ database, env: { NODE_ENV: "production" } });
  const t = Date.now();
  const log = (m: string) => console.log(kind, Date.now() - t, m);
  await registry.db.close();
  log("closed");
  const ac = AbortSignal.timeout(8000);
  const r = await fetch(registry.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ streams { totalCount } }" }), signal: ac }).then((x) => x.text(), (e) => String(e));
  log("query: " + r);
  const ready = await fetch(new URL("/readyz", registry.url), { signal: AbortSignal.timeout(8000) }).then(async (x) => x.status + (await x.text()), (e) => String(e));
  log("ready: " + ready);
  await registry.stop().catch((e) => log("stop err " + e));
  log("stopped");
  console.log(registry.logs.slice(-15).join("\n"));
}, 60000);

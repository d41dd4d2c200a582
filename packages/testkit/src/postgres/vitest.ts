import { afterAll, beforeAll } from "vitest";
import { owners } from "../kafka/vitest.ts";
import { startLogicalPostgres } from "./logical-postgres.ts";
import type { LogicalPostgres } from "./logical-postgres.ts";

/** The logical-replication PostgreSQL of a test file; filled in `beforeAll`. */
export interface LogicalPostgresHandle {
  readonly postgres: LogicalPostgres;
}

/**
 * A PostgreSQL with `wal_level=logical` of this test file alone (`startLogicalPostgres`), started in
 * beforeAll, stopped and removed in afterAll, and stopped by its watchdog if Vitest dies.
 */
export function useLogicalPostgres(): LogicalPostgresHandle {
  let started: LogicalPostgres | undefined;
  beforeAll(async () => {
    started = await startLogicalPostgres({ ownerPids: owners() });
  }, 60_000);
  afterAll(async () => {
    await started?.[Symbol.asyncDispose]();
  }, 60_000);
  return {
    get postgres() {
      if (started === undefined) throw new Error("No logical PostgreSQL: it starts in beforeAll");
      return started;
    },
  };
}

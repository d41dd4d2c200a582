import {
  isDatabaseUnavailable,
  MigrationError,
  pendingMigrations,
  pingDatabase,
  type Database,
} from "@stream-registry/store";
import type { Logger } from "../logger.ts";
import type { MigrationGuard } from "../migration-guard.ts";
import type { Reconciler } from "../reconciler/reconciler.ts";

/**
 * What /readyz reports, to anyone: fixed words only. Error text can name the database, its host
 * or its user, so it goes to the log under the request id instead.
 */
export interface Readiness {
  ready: boolean;
  checks: {
    database: "ok" | "unavailable" | "error";
    /** "applying": pending migrations are being applied now; "failed": see the log. */
    migrations: "applied" | "applying" | "failed" | "unknown";
    reconciler: "running" | "stopped" | "disabled";
  };
}

export interface ReadinessDeps {
  db: Database;
  reconciler: Reconciler;
  reconcilerEnabled: boolean;
  migrations: MigrationGuard;
  logger: Logger;
}

// How long a probe waits for migrations it started; longer runs report "applying" and go on.
const migrationWaitMs = 3_000;

/**
 * The database answers, its schema is current, the reconciler runs. Pending migrations (the
 * database came back empty) are applied here, so the registry recovers without a restart.
 */
export async function checkReadiness(deps: ReadinessDeps, requestId: string): Promise<Readiness> {
  const { db, logger } = deps;
  const database = await pingDatabase(db.prisma).then(
    () => "ok" as const,
    (error: unknown) => {
      logger.warn({ requestId, err: error }, "readiness: the database does not answer");
      return isDatabaseUnavailable(error) ? ("unavailable" as const) : ("error" as const);
    },
  );
  const migrations = database === "ok" ? await checkMigrations(deps, requestId) : "unknown";
  const running = deps.reconciler.isRunning ? "running" : "stopped";
  const checks = { database, migrations, reconciler: deps.reconcilerEnabled ? running : "disabled" } as const;
  return { ready: database === "ok" && migrations === "applied" && checks.reconciler !== "stopped", checks };
}

async function checkMigrations(
  deps: ReadinessDeps,
  requestId: string,
): Promise<Readiness["checks"]["migrations"]> {
  if (deps.migrations.applying) return "applying";
  let pending: string[];
  try {
    pending = await pendingMigrations(deps.db);
  } catch (error) {
    // A MigrationError (history edited, a migration left failed) needs an operator; its message says what to do.
    deps.logger.error({ requestId, err: error }, "readiness: cannot tell which migrations are applied");
    return error instanceof MigrationError ? "failed" : "unknown";
  }
  if (pending.length === 0) return "applied";
  const outcome = deps.migrations.apply({ reason: `readiness found ${pending.length} pending`, requestId });
  const timeout = new Promise<"applying">((resolve) =>
    setTimeout(resolve, migrationWaitMs, "applying").unref(),
  );
  return Promise.race([outcome, timeout]);
}

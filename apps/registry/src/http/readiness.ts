import { pendingMigrations, type Database } from "@stream-registry/store";
import type { Reconciler } from "../reconciler/reconciler.ts";

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; reconciler: string };
}

/** What /readyz reports: the database answers, its schema is current, the reconciler runs. */
export async function checkReadiness(
  db: Database,
  reconciler: Reconciler,
  reconcilerEnabled: boolean,
): Promise<Readiness> {
  const database = await db.prisma.$queryRaw`SELECT 1`.then(
    () => "ok",
    (error: Error) => error.message,
  );
  const migrations =
    database !== "ok"
      ? "unknown"
      : await pendingMigrations(db).then(
          (pending) => (pending.length === 0 ? "applied" : `pending: ${pending.join(", ")}`),
          (error: Error) => error.message,
        );
  const running = reconciler.isRunning ? "running" : "stopped";
  const checks = { database, migrations, reconciler: reconcilerEnabled ? running : "disabled" };
  return { ready: database === "ok" && migrations === "applied" && checks.reconciler !== "stopped", checks };
}

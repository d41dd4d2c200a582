import { existsSync } from "node:fs";
import path from "node:path";
import {
  createApiToken,
  insertGrant,
  migrate,
  openDatabase,
  pathOf,
  openRegistrySettings,
  revokeApiToken,
  writeTransaction,
  type Database,
} from "@stream-registry/store";
import type { RegistryConfig } from "../config.ts";
import { OperatorError } from "../operator-error.ts";
import { hashApiToken, newApiTokenValue } from "./api-token-value.ts";
import { ADMIN_TOKEN_NAME, FIRST_ADMIN_GRANT } from "./bootstrap-admin.ts";

/** Who the change log says revoked the old token and made the new one. */
const RESET_ACTOR = "registry:reset-admin-token";

/**
 * `npm run admin:reset-token`, run on the registry's own machine against its database (DATABASE_URL,
 * or the PGlite data directory, which no registry may hold meanwhile): revokes the token `admin`,
 * makes it again with a new value (REGISTRY_ADMIN_TOKEN's, if set), gives it the admin grant on
 * this registry's namespace if it lost it, and returns the value. Whoever can run it can read the
 * database anyway; it never goes over the network.
 */
export async function resetAdminToken(config: RegistryConfig): Promise<{ value: string; database: string }> {
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir!, "PG_VERSION"))) {
    throw new OperatorError(
      `no registry database in ${config.dataDir}: set REGISTRY_DATA_DIR (or DATABASE_URL) as the registry has it`,
    );
  }
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await requireRegistrySchema(db);
    await migrate(db);
    const value = config.auth.adminToken ?? newApiTokenValue();
    const namespace = pathOf(await openRegistrySettings(db.prisma));
    await writeTransaction(db.prisma, async (tx) => {
      await revokeApiToken(tx, ADMIN_TOKEN_NAME, RESET_ACTOR);
      const made = await createApiToken(tx, {
        name: ADMIN_TOKEN_NAME,
        hash: hashApiToken(value),
        groups: [],
        createdBy: RESET_ACTOR,
        expiresAt: null,
      });
      if (made === "taken")
        throw new Error(`the token ${ADMIN_TOKEN_NAME} was made again meanwhile; run this again`);
      await insertGrant(tx, FIRST_ADMIN_GRANT, { actor: RESET_ACTOR, scopePath: namespace });
    });
    return { value, database: db.location };
  } finally {
    await db.close();
  }
}

/** A PostgreSQL database no registry ever started on is a wrong DATABASE_URL, not one to fill. */
async function requireRegistrySchema(db: Database): Promise<void> {
  const [found] = await db.withSession((session) =>
    session.query<{ settings: string | null }>(`SELECT to_regclass('registry_settings')::text AS settings`),
  );
  if (!found?.settings) {
    throw new OperatorError(
      `no registry database at ${db.location}: set DATABASE_URL (or REGISTRY_DATA_DIR) as the registry has it`,
    );
  }
}

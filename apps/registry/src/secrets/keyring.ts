import { open, readFile } from "node:fs/promises";
import path from "node:path";
import { formatSecretKey, generateSecretKey, Keyring, parseSecretKeys } from "@stream-registry/core";
import { secretKeyUsage, type Database } from "@stream-registry/store";
import type { Logger } from "../logger.ts";
import type { SecretKeysConfig } from "./secret-keys-config.ts";

/** The key file start-up generates in an embedded database's data directory. */
export const GENERATED_KEY_FILE = "secret-keys";

const HOW_TO_MAKE_ONE =
  'set REGISTRY_SECRET_KEYS="k1:<32 random bytes, base64>", e.g. ' +
  `REGISTRY_SECRET_KEYS="k1:$(openssl rand -base64 32)" or ` +
  `REGISTRY_SECRET_KEYS="k1:$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64"))')", ` +
  "or REGISTRY_SECRET_KEYS_FILE to a file holding that; every registry process sharing the database " +
  "needs the same keys, and the keys belong in a secret store, not beside the database's backups " +
  '(docs/operations.md, "Secrets at rest")';

export interface KeyringPlace {
  secretKeys: SecretKeysConfig;
  databaseUrl: string | undefined;
  dataDir: string | undefined;
}

/**
 * The keys secrets are sealed with: the configured ones; for the embedded PGlite default without
 * any, the key file in its data directory, generated (mode 0600) at its first start; for PGlite in
 * memory, a key of its own (its secrets end with it). A PostgreSQL database without configured
 * keys is refused with how to make one: a key generated on one machine would leave every other
 * process sharing the database unable to read its secrets. `generate: false` (the rotation
 * command) never writes a key file.
 */
export async function resolveKeyring(
  place: KeyringPlace,
  logger: Logger,
  generate = true,
): Promise<{ keyring: Keyring; source: string }> {
  const { keyring, source } = place.secretKeys;
  if (keyring) return { keyring, source: source! };
  if (place.databaseUrl) {
    throw new Error(`DATABASE_URL is set but no key to encrypt secrets at rest with: ${HOW_TO_MAKE_ONE}`);
  }
  if (!place.dataDir) return { keyring: new Keyring([generateSecretKey("memory")]), source: "memory" };
  const file = path.join(place.dataDir, GENERATED_KEY_FILE);
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new Error(`cannot read the secret key file ${file}: ${error.message}`);
  });
  if (existing !== undefined)
    return { keyring: parseSecretKeys(existing, `the secret key file ${file}`), source: file };
  if (!generate)
    throw new Error(`no secret keys: none configured and no key file ${file}; ${HOW_TO_MAKE_ONE}`);
  const key = generateSecretKey(`k${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`);
  const handle = await open(file, "wx", 0o600);
  try {
    await handle.writeFile(
      "# The key secrets at rest are sealed with (REGISTRY_SECRET_KEYS format), generated at first start.\n" +
        "# Back it up apart from the data: without it, stored secrets cannot be read. To rotate, add a new\n" +
        "# key as the first line, restart, run `npm run secrets:rotate`, then remove the old line.\n" +
        `${formatSecretKey(key)}\n`,
    );
  } finally {
    await handle.close();
  }
  logger.warn(
    { file },
    "generated a key to encrypt secrets at rest; keep it (and back it up apart from the data)",
  );
  return { keyring: new Keyring([key]), source: file };
}

/**
 * Logs an error for every key id that still wraps data keys but is not configured: the secrets
 * under it cannot be decrypted until it is added back (secrets:rotate says which are in use).
 */
export async function checkKeysInUse(db: Database, keyring: Keyring, logger: Logger): Promise<void> {
  const missing = (await secretKeyUsage(db.prisma)).filter((usage) => !keyring.has(usage.kid));
  if (missing.length === 0) return;
  logger.error(
    { missing, configured: keyring.kids() },
    "secrets are sealed with key ids that are not configured and cannot be decrypted; add those keys to REGISTRY_SECRET_KEYS",
  );
}

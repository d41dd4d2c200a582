import { migrate, openDatabase, rewrapEnvelopes, rewrapRegistryKeys } from "@stream-registry/store";
import type { RegistryConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { resolveKeyring } from "./keyring.ts";

/**
 * `npm run secrets:rotate`: against the configured database (DATABASE_URL, or the PGlite data
 * directory, which no registry may hold meanwhile), rewraps every data key with the first key of
 * REGISTRY_SECRET_KEYS, prints what it did and which key ids are still in use, and says which
 * configured ones may go. Every registry process must have the new list before (so that each can
 * read what the others rewrap). Resolves to the exit code: 1 if an envelope could not be rewrapped.
 */
export async function rotateSecrets(
  config: RegistryConfig,
  logger: Logger,
  print: (line: string) => void,
): Promise<number> {
  const { keyring, source } = await resolveKeyring(config, logger, false);
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    const { applied } = await migrate(db);
    if (applied.length > 0) print(`applied ${applied.length} pending migration(s) first`);
    const current = keyring.current.kid;
    print(`database: ${db.location}; keys from ${source}: ${keyring.kids().join(", ")}`);
    const report = await rewrapEnvelopes(db.prisma, keyring);
    print(
      `rewrapped ${report.rewrapped} data key(s) with key "${current}"; ${report.current} used it already; ` +
        `${report.failed.length} could not be rewrapped`,
    );
    for (const failure of report.failed)
      print(`  ${failure.owner} (key id "${failure.kid}"): ${failure.reason}`);
    // The registry's own signing keys are wrapped with the same keys (docs/security.md).
    const signing = await rewrapRegistryKeys(db.prisma, keyring);
    print(
      `rewrapped ${signing.rewrapped} registry signing key(s); ${signing.failed.length} could not be rewrapped`,
    );
    for (const failure of signing.failed) print(`  registry signing key ${failure.kid}: ${failure.reason}`);
    const inUse = report.usage.map((usage) => `${usage.kid} (${usage.envelopes})`);
    print(`key ids in use: ${inUse.length > 0 ? inUse.join(", ") : "none (no secret is stored)"}`);
    const unused = keyring
      .kids()
      .filter((kid) => kid !== current && !report.usage.some((u) => u.kid === kid));
    if (unused.length > 0) {
      print(
        `no longer in use: ${unused.join(", ")}; remove them from REGISTRY_SECRET_KEYS (every registry ` +
          "process sharing this database, then restart them)",
      );
    }
    const missing = report.usage.filter((usage) => !keyring.has(usage.kid)).map((usage) => usage.kid);
    if (missing.length > 0) {
      print(
        `not configured but in use: ${missing.join(", ")}; add them to REGISTRY_SECRET_KEYS and run this again`,
      );
    }
    return report.failed.length + signing.failed.length > 0 ? 1 : 0;
  } finally {
    await db.close();
  }
}

import type { Tx } from "./transaction.ts";
import { open } from "./open-db.ts";

/**
 * Records a registration proof's `jti` until it expires: false if it was recorded already (a
 * replay). In the transaction that applies the registration, so a refused one spends nothing;
 * registries sharing the database see each other's. Expired ones are deleted on the way.
 */
export async function spendRegistrationProof(tx: Tx, jti: string, expiresAt: Date): Promise<boolean> {
  await open(tx).registrationProof.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  const written = await open(tx).$executeRawUnsafe(
    `INSERT INTO registration_proof (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING`,
    jti,
    expiresAt,
  );
  return written > 0;
}

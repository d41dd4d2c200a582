import { ErrorCode, userError, type UserError } from "@stream-registry/core";
import { registrationDigest, type RegistrationPurpose } from "@stream-registry/federation";
import type { PublicJwk, RegistrationRefusal } from "@stream-registry/store";
import { verifyRegistrationProof } from "../auth/registration-proof.ts";
import { UserErrors } from "./user-errors.ts";

/**
 * A registered child's `proof` for what it asks (`purpose`, of `fields`), checked against the keys
 * the parent pinned for it: what the store records (its jti, spent once), or UNAUTHENTICATED on
 * input.proof saying why. No bearer secret stands in for it (docs/security.md, "Registration").
 */
export async function checkRegistrationProof(
  proof: string | null | undefined,
  pinned: PublicJwk[],
  request: {
    child: string;
    parent: string;
    purpose: RegistrationPurpose;
    fields: Parameters<typeof registrationDigest>[1];
  },
): Promise<{ proof: { jti: string; expiresAt: Date; pinned: PublicJwk[] } }> {
  const { child, parent, purpose, fields } = request;
  const digest = registrationDigest(purpose, fields);
  const checked = await verifyRegistrationProof(proof, pinned, { child, parent, purpose, digest });
  if (!checked.ok)
    throw new UserErrors([userError(ErrorCode.UNAUTHENTICATED, ["input", "proof"], checked.reason)]);
  return { proof: { jti: checked.jti, expiresAt: checked.expiresAt, pinned } };
}

/** A registration the store refused for its proof (the keys changed meanwhile, a replay, or none). */
export function proofRefusal(refused: Exclude<RegistrationRefusal, "taken">, registryId: string): UserError {
  return userError(
    ErrorCode.UNAUTHENTICATED,
    ["input", "proof"],
    refused === "replayed"
      ? `this proof of registry ${registryId} was shown before: each is accepted once; sign another`
      : `registry ${registryId} registered or left meanwhile: its registration changed under this request; ask again`,
  );
}

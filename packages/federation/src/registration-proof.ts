import { createHash } from "node:crypto";

/**
 * How a registered child proves, to register again (renew, move, new keys) or to unregister, that
 * it holds a private key its parent pinned: a JWS signed with its keys (docs/security.md,
 * "Registration"). Nothing the child stores in clear can stand in for it.
 */

/** The longest a registration proof lives: a copied one is soon worth nothing, and each is accepted once. */
export const REGISTRATION_PROOF_TTL_S = 60;

/** What a proof is for: a registration of these fields, or leaving. */
export type RegistrationPurpose = "register" | "unregister";

/** The claims a child signs (its payload, JSON). */
export interface RegistrationProofClaims {
  /** `registry:<child's id>`. */
  iss: string;
  /** `registry:<parent's id>`: a proof for one parent is refused by every other. */
  aud: string;
  purpose: RegistrationPurpose;
  /** registrationDigest of what the request asks: a proof does not carry over to other fields. */
  digest: string;
  iat: number;
  exp: number;
  jti: string;
}

/** The fields of a registration a proof is bound to. */
export interface ProvenFields {
  registryId: string;
  name: string;
  url: string;
  version: string;
  sdl: string;
  keys: readonly { kid?: unknown; x?: unknown }[];
}

/** The digest a proof carries: of the registration's fields, or, to unregister, of the id alone. */
export function registrationDigest(
  purpose: RegistrationPurpose,
  fields: ProvenFields | { registryId: string },
): string {
  const bound =
    "name" in fields
      ? [
          purpose,
          fields.registryId,
          fields.name,
          fields.url,
          fields.version,
          sha256(fields.sdl),
          fields.keys.map((key) => [String(key.kid), String(key.x)]),
        ]
      : [purpose, fields.registryId];
  return sha256(JSON.stringify(bound));
}

/** The claims of a new proof, `REGISTRATION_PROOF_TTL_S` long, from `now` (ms). */
export function registrationClaims(
  child: string,
  parent: string,
  purpose: RegistrationPurpose,
  digest: string,
  jti: string,
  now = Date.now(),
): RegistrationProofClaims {
  const iat = Math.floor(now / 1000);
  return {
    iss: `registry:${child}`,
    aud: `registry:${parent}`,
    purpose,
    digest,
    iat,
    exp: iat + REGISTRATION_PROOF_TTL_S,
    jti,
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64url");
}

import type { KeyObject } from "node:crypto";
import {
  REGISTRATION_PROOF_TTL_S,
  type RegistrationProofClaims,
  type RegistrationPurpose,
} from "@stream-registry/federation";
import type { PublicJwk } from "@stream-registry/store";
import { createLocalJWKSet, GeneralSign, generalVerify, type GeneralJWSInput } from "jose";

/** A proof's size and signatures: one per key a registry holds (8 at most, as it publishes). */
const MAX_PROOF_LENGTH = 16_384;
const MAX_SIGNATURES = 8;
/** How far the two registries' clocks may disagree. */
const CLOCK_SKEW_S = 5;
const JTI = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * A General JWS (RFC 7515, JSON serialization) of `claims` with a signature by each of `keys`:
 * the parent accepts it if one is by a key it pinned, so a registry that rotated its key proves
 * itself with the old one (still pinned there) while it presents the new.
 */
export async function signRegistrationProof(
  keys: readonly { kid: string; key: KeyObject }[],
  claims: RegistrationProofClaims,
): Promise<string> {
  const jws = new GeneralSign(new TextEncoder().encode(JSON.stringify(claims)));
  for (const { kid, key } of keys.slice(0, MAX_SIGNATURES))
    jws.addSignature(key).setProtectedHeader({ alg: "EdDSA", kid });
  return JSON.stringify(await jws.sign());
}

export type ProofCheck = { ok: true; jti: string; expiresAt: Date } | { ok: false; reason: string };

/**
 * Whether `proof` was signed by one of the `pinned` keys of the child `child` for this parent,
 * for `purpose` and the request's `digest`, and is fresh: issued at most
 * REGISTRATION_PROOF_TTL_S before it expires, and not expired. Single use is the caller's: it
 * records the returned `jti` until `expiresAt`.
 */
export async function verifyRegistrationProof(
  proof: string | null | undefined,
  pinned: readonly PublicJwk[],
  expected: { child: string; parent: string; purpose: RegistrationPurpose; digest: string },
  now = Date.now(),
): Promise<ProofCheck> {
  const refuse = (reason: string): ProofCheck => ({ ok: false, reason });
  if (!proof) {
    return refuse(
      `registry ${expected.child} is registered here: to ${expected.purpose} it shows a proof signed with a key it registered with (input.proof); an enrollment token or any other bearer secret is not enough`,
    );
  }
  if (proof.length > MAX_PROOF_LENGTH)
    return refuse(`proof must have at most ${MAX_PROOF_LENGTH} characters`);
  let jws: GeneralJWSInput;
  try {
    jws = JSON.parse(proof) as GeneralJWSInput;
  } catch {
    return refuse("proof is not a JWS in JSON serialization");
  }
  if (!Array.isArray(jws?.signatures) || jws.signatures.length > MAX_SIGNATURES)
    return refuse(`proof must carry 1 to ${MAX_SIGNATURES} signatures`);
  let payload: Uint8Array;
  try {
    ({ payload } = await generalVerify(jws, createLocalJWKSet({ keys: pinned.map((k) => ({ ...k })) }), {
      algorithms: ["EdDSA"],
    }));
  } catch {
    return refuse(`proof is not signed by a key registry ${expected.child} registered with here`);
  }
  const claims = parseClaims(payload);
  if (!claims) return refuse("proof's claims are not a registration proof's");
  const seconds = Math.floor(now / 1000);
  const wrong =
    claims.iss !== `registry:${expected.child}`
      ? `its issuer is ${claims.iss.slice(0, 80)}, not registry:${expected.child}`
      : claims.aud !== `registry:${expected.parent}`
        ? `its audience is ${claims.aud.slice(0, 80)}, not this registry (registry:${expected.parent})`
        : claims.purpose !== expected.purpose || claims.digest !== expected.digest
          ? `it was signed for another request (to ${claims.purpose.slice(0, 20)} other fields)`
          : claims.exp - claims.iat > REGISTRATION_PROOF_TTL_S
            ? `it lives more than ${REGISTRATION_PROOF_TTL_S} s`
            : claims.exp + CLOCK_SKEW_S < seconds || claims.iat - CLOCK_SKEW_S > seconds
              ? `it is stale (valid from ${isoOf(claims.iat)} to ${isoOf(claims.exp)})`
              : !JTI.test(claims.jti)
                ? "its jti is not 16 to 128 base64url characters"
                : undefined;
  if (wrong) return refuse(`proof refused: ${wrong}`);
  return { ok: true, jti: claims.jti, expiresAt: new Date((claims.exp + CLOCK_SKEW_S) * 1000) };
}

function parseClaims(payload: Uint8Array): RegistrationProofClaims | undefined {
  let claims: Partial<Record<keyof RegistrationProofClaims, unknown>>;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload)) as typeof claims;
  } catch {
    return undefined;
  }
  const strings = [claims.iss, claims.aud, claims.purpose, claims.digest, claims.jti];
  const numbers = [claims.iat, claims.exp];
  return strings.every((s) => typeof s === "string") && numbers.every((n) => Number.isSafeInteger(n))
    ? (claims as RegistrationProofClaims)
    : undefined;
}

function isoOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

import { generateKeyPairSync, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { registrationClaims, registrationDigest } from "@stream-registry/federation";
import type { PublicJwk } from "@stream-registry/store";
import { signRegistrationProof, verifyRegistrationProof } from "../src/auth/registration-proof.ts";

function key(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const { x } = publicKey.export({ format: "jwk" });
  const jwk: PublicJwk = { kty: "OKP", crv: "Ed25519", x: x!, kid, alg: "EdDSA", use: "sig" };
  return { kid, key: privateKey, jwk };
}

const child = randomUUID();
const parent = randomUUID();
const fields = {
  registryId: child,
  name: "aws",
  url: "http://a/graphql",
  version: "1",
  sdl: "type Query",
  keys: [],
};
const digest = registrationDigest("register", fields);
const expected = { child, parent, purpose: "register" as const, digest };

// The proof a registered child shows its parent (docs/security.md, "Registration"), signed and
// checked as the registries do; the tree tests show it between registry processes.
describe("registration proofs", () => {
  const old = key("old");
  const rotated = key("new");

  it("is accepted when one of its signatures is by a pinned key: a rotated child signs with its old key too", async () => {
    const proof = await signRegistrationProof(
      [rotated, old],
      registrationClaims(child, parent, "register", digest, randomUUID()),
    );
    expect(await verifyRegistrationProof(proof, [old.jwk], expected)).toMatchObject({ ok: true });
  });

  it("is refused signed by another key, for another parent, request or purpose, stale, or missing", async () => {
    const claims = registrationClaims(child, parent, "register", digest, randomUUID());
    const check = async (keys: (typeof old)[], c = claims, now = Date.now()) =>
      verifyRegistrationProof(await signRegistrationProof(keys, c), [old.jwk], expected, now);
    expect(await check([rotated])).toEqual({
      ok: false,
      reason: expect.stringContaining("not signed by a key"),
    });
    expect(await check([old], { ...claims, aud: `registry:${randomUUID()}` })).toEqual({
      ok: false,
      reason: expect.stringContaining("its audience is"),
    });
    const moved = registrationDigest("register", { ...fields, url: "http://attacker/graphql" });
    expect(await check([old], { ...claims, digest: moved })).toEqual({
      ok: false,
      reason: expect.stringContaining("signed for another request"),
    });
    expect(await check([old], { ...claims, purpose: "unregister" })).toMatchObject({ ok: false });
    expect(await check([old], claims, Date.now() + 120_000)).toEqual({
      ok: false,
      reason: expect.stringContaining("stale"),
    });
    expect(await check([old], { ...claims, exp: claims.iat + 3600 })).toMatchObject({ ok: false });
    expect(await verifyRegistrationProof(null, [old.jwk], expected)).toEqual({
      ok: false,
      reason: expect.stringContaining("an enrollment token or any other bearer secret is not enough"),
    });
    for (const bad of ["x", "{}", '{"signatures":[],"payload":"e30"}', "a".repeat(20_000)])
      expect(await verifyRegistrationProof(bad, [old.jwk], expected)).toMatchObject({ ok: false });
  });
});

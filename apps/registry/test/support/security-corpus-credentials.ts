import { createHash } from "node:crypto";
import { generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from "jose";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { AUDIENCE, type CorpusCase } from "./security-corpus.ts";
import {
  as,
  type Attack,
  attackCases,
  bearer,
  type Headers,
  now,
  ROOT_OPS,
  unknownToken,
} from "./security-corpus-ops.ts";

// The corpus's credentials that do not authenticate, at the root.

function credentialAttacks(): Attack[] {
  let forger: Promise<CryptoKey> | undefined;
  const forgedKey = () => (forger ??= generateKeyPair("RS256").then((pair) => pair.privateKey));
  const oidc =
    (claims: JWTPayload & { aud?: string }, options: { forge?: boolean; kid?: string } = {}): Headers =>
    async (w) =>
      bearer(
        await w.issuer.sign(
          { groups: ["oidc-readers"], ...claims },
          {
            ...(options.forge ? { key: await forgedKey() } : {}),
            ...(options.kid ? { kid: options.kid } : {}),
          },
        ),
      );
  return [
    { label: "no Authorization header", headers: () => ({}) },
    { label: "an empty bearer", headers: () => ({ authorization: "Bearer " }) },
    {
      label: "Basic credentials",
      headers: () => ({ authorization: `Basic ${Buffer.from("admin:admin").toString("base64")}` }),
    },
    {
      label: "the admin token twice in one header",
      headers: () => bearer(`${TEST_ADMIN_TOKEN} ${TEST_ADMIN_TOKEN}`),
    },
    {
      label: "the admin token under another scheme",
      headers: () => ({ authorization: `Token ${TEST_ADMIN_TOKEN}` }),
    },
    { label: "an unknown API token", headers: unknownToken },
    {
      label: "the admin token less its last character",
      headers: () => bearer(TEST_ADMIN_TOKEN.slice(0, -1)),
    },
    {
      label: "the admin token's stored hash",
      headers: () => bearer(createHash("sha256").update(TEST_ADMIN_TOKEN).digest("base64url")),
    },
    { label: "a revoked API token (a writer's)", headers: as("revoked") },
    { label: "an expired API token (a writer's)", headers: as("expired") },
    { label: "a malformed JWT", headers: () => bearer("eyJhbGciOi.eyJzdWIiOi.c2ln") },
    { label: "an expired OIDC token", headers: oidc({ iat: now() - 7200, exp: now() - 3600 }) },
    {
      label: "an OIDC token of an untrusted issuer",
      headers: async (w) => bearer(await w.stranger.sign({ groups: ["oidc-readers"] })),
    },
    { label: "an OIDC token for another audience", headers: oidc({ aud: "another-service" }) },
    { label: "an OIDC token with a forged signature", headers: oidc({}, { forge: true }) },
    { label: "an OIDC token naming an unknown key", headers: oidc({}, { forge: true, kid: "k-rogue" }) },
    {
      label: 'an OIDC token with "alg": "none"',
      headers: (w) =>
        bearer(
          new UnsecuredJWT({ sub: "alice", aud: AUDIENCE, groups: ["oidc-readers"] })
            .setIssuer(w.issuer.issuer)
            .setExpirationTime("1h")
            .encode(),
        ),
    },
    {
      label: "an OIDC token signed HS256 with the issuer's public key",
      headers: async (w) => {
        const jwks = (await (await fetch(`${w.issuer.issuer}/jwks`)).json()) as { keys: unknown[] };
        const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
        return bearer(
          await new SignJWT({ sub: "alice", aud: AUDIENCE, groups: ["oidc-readers"] })
            .setProtectedHeader({ alg: "HS256", kid: "k1" })
            .setIssuer(w.issuer.issuer)
            .setIssuedAt()
            .setExpirationTime("1h")
            .sign(secret),
        );
      },
    },
    { label: "an OIDC token without a subject", headers: oidc({ sub: undefined }) },
    { label: "an OIDC token not valid yet (nbf in an hour)", headers: oidc({ nbf: now() + 3600 }) },
  ];
}

/** Credentials that do not authenticate, at the root: 20 kinds x 10 operations. */
export const credentialCases = (): CorpusCase[] =>
  attackCases("credentials", "/", credentialAttacks(), ROOT_OPS);

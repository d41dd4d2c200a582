import { randomUUID } from "node:crypto";
import { SignJWT, UnsecuredJWT, type JWTPayload } from "jose";
import { type CorpusCase, type CorpusWorld } from "./security-corpus.ts";
import {
  type Attack,
  attackCases,
  AWS_OPS,
  bearer,
  forUser,
  type Headers,
  now,
} from "./security-corpus-ops.ts";

// The corpus's tokens as if from the root, each wrong in one way, sent straight to the child /aws.

function parentTokenAttacks(): Attack[] {
  const user = forUser("token:aws-writer");
  const signed =
    (claims: (w: CorpusWorld) => JWTPayload, options?: { forge?: boolean; kid?: string }): Headers =>
    async (w) =>
      bearer(await w.asRoot.sign(claims(w), options));
  const rootPublicX = async (w: CorpusWorld) => {
    const { registry } = await w.root.query<{ registry: { keys: { x: string }[] } }>("{ registry { keys } }");
    return Buffer.from(registry.keys[0]!.x, "base64url");
  };
  return [
    { label: "signed by a key that is not the parent's", headers: signed(user, { forge: true }) },
    {
      label: "signed by a key not pinned, under its own key id",
      headers: signed(user, { forge: true, kid: "rogue" }),
    },
    {
      label: "for the root itself (wrong audience)",
      headers: signed((w) => ({ ...user(w), aud: `registry:${w.ids.root}` })),
    },
    {
      label: "for the sibling /aws2 (wrong audience)",
      headers: signed((w) => ({ ...user(w), aud: `registry:${w.ids.aws2}` })),
    },
    { label: "without an audience", headers: signed((w) => ({ ...user(w), aud: undefined })) },
    {
      label: "acting for the child registry itself",
      headers: signed((w) => ({ ...user(w), sub: `registry:${w.ids.aws}` })),
    },
    {
      label: "acting for the parent registry itself",
      headers: signed((w) => ({ ...user(w), sub: `registry:${w.ids.root}` })),
    },
    {
      label: "acting for the enrollment principal",
      headers: signed((w) => ({ ...user(w), sub: "enrollment" })),
    },
    {
      label: "whose actor is another registry",
      headers: signed((w) => ({ ...user(w), act: { sub: `registry:${w.ids.aws2}` } })),
    },
    {
      label: "the parent's own token naming a user as subject",
      headers: signed((w) => ({ ...user(w), act: undefined })),
    },
    { label: "living an hour (TTL > 60 s)", headers: signed((w) => ({ ...user(w), exp: now() + 3600 })) },
    {
      label: "expired",
      headers: signed((w) => ({ ...user(w), iat: now() - 200, exp: now() - 120 })),
    },
    {
      label: "issued ten minutes from now (a 50 s token valid in the future)",
      headers: signed((w) => ({ ...user(w), iat: now() + 600, exp: now() + 650 })),
    },
    { label: "without an id (jti)", headers: signed((w) => ({ ...user(w), jti: undefined })) },
    { label: "without an expiry", headers: signed((w) => ({ ...user(w), exp: undefined })) },
    {
      label: 'with "alg": "none"',
      headers: (w) =>
        bearer(
          new UnsecuredJWT({ ...user(w), jti: randomUUID() })
            .setIssuer(`registry:${w.ids.root}`)
            .setIssuedAt()
            .setExpirationTime("1m")
            .encode(),
        ),
    },
    {
      label: "signed HS256 with the parent's public key",
      headers: async (w) =>
        bearer(
          await new SignJWT({ ...user(w), jti: randomUUID() })
            .setProtectedHeader({ alg: "HS256", kid: w.asRoot.kid })
            .setIssuer(`registry:${w.ids.root}`)
            .setIssuedAt()
            .setExpirationTime("1m")
            .sign(await rootPublicX(w)),
        ),
    },
    {
      label: "from an unknown registry",
      headers: signed((w) => ({ ...user(w), iss: `registry:${randomUUID()}` })),
    },
    {
      label: "from a registry id that is not one",
      headers: signed((w) => ({ ...user(w), iss: "registry:../root" })),
    },
    // Issue 19: a parent speaks for what happened above it, never for the child's own principals.
    {
      label: "acting for the child's own admin token (sub_iss names the child)",
      headers: signed((w) => ({ ...user(w), sub: "token:admin", sub_iss: `registry:${w.ids.aws}` })),
    },
    {
      label: "acting for a token of the child's own OIDC issuer",
      headers: signed((w) => ({ ...user(w), sub: "token:admin", sub_iss: w.issuer.issuer })),
    },
    {
      label: "with the child in the chain it came through",
      headers: signed((w) => ({
        ...user(w),
        sub: "token:admin",
        act: { sub: `registry:${w.ids.root}`, act: { sub: `registry:${w.ids.aws}` } },
      })),
    },
    {
      label: "signed by the child for itself",
      headers: async (w) => bearer(await w.asAws.sign({ ...user(w), act: { sub: `registry:${w.ids.aws}` } })),
    },
  ];
}

/** Tokens of the tree, forged or misused, sent straight to the child: 23 kinds x 5 operations. */
export const parentTokenCases = (): CorpusCase[] =>
  attackCases("parent token", "/aws", parentTokenAttacks(), AWS_OPS);

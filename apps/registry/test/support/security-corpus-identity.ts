import { createHash, randomBytes, randomUUID } from "node:crypto";
import { generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from "jose";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { AUDIENCE, Q, type CorpusCase, type CorpusWorld } from "./security-corpus.ts";
import {
  as,
  AWS_OPS,
  caseList,
  childOwn,
  FORBIDDEN,
  forUser,
  type Headers,
  input,
  nothingShown,
  now,
  op,
  parentOwn,
  replayed,
  ROOT_OPS,
  UNAUTHENTICATED,
} from "./security-corpus-ops.ts";

// The corpus's cases about who is asking: credentials that do not authenticate, tokens of the
// tree forged or replayed, registries acting beyond their own reads, and headers that would be an
// identity.

function credentialAttacks(): { label: string; headers: Headers }[] {
  let forger: Promise<CryptoKey> | undefined;
  const forgedKey = () => (forger ??= generateKeyPair("RS256").then((pair) => pair.privateKey));
  const oidc =
    (claims: JWTPayload & { aud?: string }, options: { forge?: boolean; kid?: string } = {}): Headers =>
    async (w) => ({
      authorization: `Bearer ${await w.issuer.sign(
        { groups: ["oidc-readers"], ...claims },
        {
          ...(options.forge ? { key: await forgedKey() } : {}),
          ...(options.kid ? { kid: options.kid } : {}),
        },
      )}`,
    });
  return [
    { label: "no Authorization header", headers: () => ({}) },
    { label: "an empty bearer", headers: () => ({ authorization: "Bearer " }) },
    {
      label: "Basic credentials",
      headers: () => ({ authorization: `Basic ${Buffer.from("admin:admin").toString("base64")}` }),
    },
    {
      label: "the admin token twice in one header",
      headers: () => ({ authorization: `Bearer ${TEST_ADMIN_TOKEN} ${TEST_ADMIN_TOKEN}` }),
    },
    {
      label: "the admin token under another scheme",
      headers: () => ({ authorization: `Token ${TEST_ADMIN_TOKEN}` }),
    },
    {
      label: "an unknown API token",
      headers: () => ({ authorization: `Bearer srt_${randomBytes(32).toString("base64url")}` }),
    },
    {
      label: "the admin token less its last character",
      headers: () => ({ authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}` }),
    },
    {
      label: "the admin token's stored hash",
      headers: () => ({
        authorization: `Bearer ${createHash("sha256").update(TEST_ADMIN_TOKEN).digest("base64url")}`,
      }),
    },
    { label: "a revoked API token (a writer's)", headers: as("revoked") },
    { label: "an expired API token (a writer's)", headers: as("expired") },
    { label: "a malformed JWT", headers: () => ({ authorization: "Bearer eyJhbGciOi.eyJzdWIiOi.c2ln" }) },
    { label: "an expired OIDC token", headers: oidc({ iat: now() - 7200, exp: now() - 3600 }) },
    {
      label: "an OIDC token of an untrusted issuer",
      headers: async (w) => ({
        authorization: `Bearer ${await w.stranger.sign({ groups: ["oidc-readers"] })}`,
      }),
    },
    { label: "an OIDC token for another audience", headers: oidc({ aud: "another-service" }) },
    { label: "an OIDC token with a forged signature", headers: oidc({}, { forge: true }) },
    { label: "an OIDC token naming an unknown key", headers: oidc({}, { forge: true, kid: "k-rogue" }) },
    {
      label: 'an OIDC token with "alg": "none"',
      headers: (w) => ({
        authorization: `Bearer ${new UnsecuredJWT({ sub: "alice", aud: AUDIENCE, groups: ["oidc-readers"] })
          .setIssuer(w.issuer.issuer)
          .setExpirationTime("1h")
          .encode()}`,
      }),
    },
    {
      label: "an OIDC token signed HS256 with the issuer's public key",
      headers: async (w) => {
        const jwks = (await (await fetch(`${w.issuer.issuer}/jwks`)).json()) as { keys: unknown[] };
        const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
        return {
          authorization: `Bearer ${await new SignJWT({
            sub: "alice",
            aud: AUDIENCE,
            groups: ["oidc-readers"],
          })
            .setProtectedHeader({ alg: "HS256", kid: "k1" })
            .setIssuer(w.issuer.issuer)
            .setIssuedAt()
            .setExpirationTime("1h")
            .sign(secret)}`,
        };
      },
    },
    { label: "an OIDC token without a subject", headers: oidc({ sub: undefined }) },
    { label: "an OIDC token not valid yet (nbf in an hour)", headers: oidc({ nbf: now() + 3600 }) },
  ];
}

// ---------------------------------------------------------------------------------------------
function parentTokenAttacks(): { label: string; headers: Headers }[] {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const user = (w: CorpusWorld) => ({
    sub: "token:aws-writer",
    aud: `registry:${w.ids.aws}`,
    act: { sub: `registry:${w.ids.root}` },
  });
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
    {
      label: "signed by the child for itself",
      headers: async (w) => bearer(await w.asAws.sign({ ...user(w), act: { sub: `registry:${w.ids.aws}` } })),
    },
  ];
}

/** The cases about identity, in their categories. */
export function identityCases(): CorpusCase[] {
  const { cases, add } = caseList();
  // 1. Credentials that do not authenticate, at the root: 20 kinds x 10 operations.
  for (const attack of credentialAttacks())
    for (const o of ROOT_OPS)
      add("credentials", `${attack.label}, ${o.label}`, "/", attack.headers, o, UNAUTHENTICATED);

  // 2. Tokens of the tree, forged or misused, sent straight to the child: 20 kinds x 5 operations.
  for (const attack of parentTokenAttacks())
    for (const o of AWS_OPS)
      add("parent token", `${attack.label}, ${o.label}`, "/aws", attack.headers, o, UNAUTHENTICATED);

  // 3. A token the parent signed, replayed (its first use, a harmless query, was accepted).
  for (const o of AWS_OPS)
    add(
      "replayed token",
      `for a writer of /aws, ${o.label}`,
      "/aws",
      replayed(forUser("token:aws-writer")),
      o,
      UNAUTHENTICATED,
    );
  add(
    "replayed token",
    "the parent's own, changes",
    "/aws",
    replayed((w) => ({ sub: `registry:${w.ids.root}`, aud: `registry:${w.ids.aws}` })),
    op("changes", Q.changes),
    UNAUTHENTICATED,
  );

  // 4. No confused deputy: the parent's own identity, and a child's, give nothing beyond their reads.
  for (const o of [
    input("createStream", Q.createStream, { name: "deputy_s" }),
    input("updateStream (overwrite a secret)", Q.updateStream, {
      name: "aws_a",
      config: { "db.sink": { password: "x" } },
    }),
    input("declareCluster", Q.declareCluster, { name: "deputy-c" }),
    input("grant admin", Q.grant, { principal: "token:nobody", role: "admin" }),
    op("createApiToken", Q.createApiToken, { input: { name: "deputy" } }),
    op("rotateRegistryKey", Q.rotateKey),
  ])
    add("confused deputy", `the parent's own token at /aws, ${o.label}`, "/aws", parentOwn, o, FORBIDDEN);
  add(
    "confused deputy",
    "the parent's own token at /aws, streams (no list)",
    "/aws",
    parentOwn,
    op("streams", Q.streams),
    {
      status: 200,
      code: null,
      check: nothingShown,
    },
  );
  for (const o of [
    input("createStream", Q.createStream, { name: "child_s" }),
    input("grant admin", Q.grant, { principal: "token:nobody", role: "admin" }),
  ])
    add("confused deputy", `the child's own token at the root, ${o.label}`, "/", childOwn, o, FORBIDDEN);
  // The root forwards before anyone authorizes (docs/security.md); /aws2 refuses a parent acting for a registry.
  add(
    "confused deputy",
    "the child's own token at the root, createStream forwarded to /aws2",
    "/",
    childOwn,
    input("createStream", Q.createStream, { namespace: "/aws2", name: "child_s" }),
    UNAUTHENTICATED,
  );
  add(
    "confused deputy",
    "the child's own token at the root, streams and changes",
    "/",
    childOwn,
    op("lists", `{ streams { totalCount nodes { name } } changes { totalCount nodes { seq } } }`),
    {
      status: 200,
      code: null,
      check: nothingShown,
    },
  );
  for (const o of AWS_OPS.slice(0, 3).concat(AWS_OPS.slice(3, 4)))
    add(
      "confused deputy",
      `the child's token acting for a user at the root, ${o.label}`,
      "/",
      async (w) => ({
        authorization: `Bearer ${await w.asAws.sign({ sub: "token:admin", aud: `registry:${w.ids.root}`, act: { sub: `registry:${w.ids.aws}` } })}`,
      }),
      { ...o, body: { ...o.body } },
      UNAUTHENTICATED,
    );
  add(
    "confused deputy",
    "the root's API token sent to the child (tokens are per registry)",
    "/aws",
    as("writer"),
    AWS_OPS[0]!,
    UNAUTHENTICATED,
  );
  add(
    "confused deputy",
    "an unknown API token at the child, grant admin",
    "/aws",
    () => ({ authorization: `Bearer srt_${randomBytes(32).toString("base64url")}` }),
    AWS_OPS[2]!,
    UNAUTHENTICATED,
  );

  // 9. Headers that would be an identity, or the tree's own, from a caller: none is believed.
  const spoofed: [string, Record<string, string>][] = [
    ["x-actor", { "x-actor": "token:admin" }],
    ["x-registry-hops and x-registry-budget-ms", { "x-registry-hops": "1", "x-registry-budget-ms": "30000" }],
    ["x-forwarded-for of the parent", { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" }],
    [
      "x-forwarded-user and x-remote-user",
      { "x-forwarded-user": "admin", "x-remote-user": "admin", "remote-user": "admin" },
    ],
    [
      "x-auth-request-user and x-forwarded-email",
      {
        "x-auth-request-user": "admin",
        "x-forwarded-email": "admin@acme.com",
        "x-forwarded-groups": "platform",
      },
    ],
    ["proxy-authorization with the admin token", { "proxy-authorization": `Bearer ${TEST_ADMIN_TOKEN}` }],
    [
      "a cookie with the admin token",
      { cookie: `authorization=Bearer ${TEST_ADMIN_TOKEN}; token=${TEST_ADMIN_TOKEN}` },
    ],
  ];
  const SPOOF_OPS = [ROOT_OPS[0]!, ROOT_OPS[4]!];
  for (const [label, headers] of spoofed)
    for (const o of SPOOF_OPS) {
      add(
        "header spoofing",
        `${label} without a credential, ${o.label}`,
        "/",
        () => headers,
        o,
        UNAUTHENTICATED,
      );
      add(
        "header spoofing",
        `${label} with a reader's token, ${o.label}`,
        "/",
        (w) => ({ ...headers, authorization: `Bearer ${w.tokens.reader}` }),
        o,
        FORBIDDEN,
      );
    }
  add(
    "header spoofing",
    "the admin token as access_token in the query string",
    "/",
    () => ({}),
    { body: ROOT_OPS[0]!.body, search: `?access_token=${TEST_ADMIN_TOKEN}`, mutates: true },
    UNAUTHENTICATED,
  );
  add(
    "header spoofing",
    "the admin token in the request's extensions",
    "/",
    () => ({}),
    {
      body: {
        ...ROOT_OPS[0]!.body,
        extensions: { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } },
      },
      mutates: true,
    },
    UNAUTHENTICATED,
  );
  add(
    "header spoofing",
    "x-registry-hops of a forwarded request, to the child, without a credential",
    "/aws",
    () => ({ "x-registry-hops": "1" }),
    AWS_OPS[0]!,
    UNAUTHENTICATED,
  );

  return cases;
}

import { generateKeyPairSync, randomUUID } from "node:crypto";
import { lineageOf } from "@stream-registry/core";
import type { Database, PublicJwk } from "@stream-registry/store";
import { createSigner } from "fast-jwt";
import { expect, it } from "vitest";
import { RegistryTokenVerifier } from "../src/auth/registry-token-verifier.ts";
import { ReplayCache } from "../src/auth/replay-cache.ts";

// The verifier reads the pinned keys through two store calls; this database answers them from
// memory, so a test can make the parent link appear between two requests.
const [self, parentId] = [randomUUID(), randomUUID()];
let parentLink: { parentRegistryId: string; keys: PublicJwk[] } | undefined;
const db = {
  prisma: {
    $queryRawUnsafe: async () => (parentLink ? [parentLink] : []),
    childRegistry: { findUnique: async () => null },
  },
} as unknown as Database;

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const kid = "k1";
const sign = createSigner({
  key: privateKey.export({ format: "pem", type: "pkcs8" }) as string,
  algorithm: "EdDSA",
  kid,
  expiresIn: 30_000,
});
const tokenOfParent = () =>
  sign({
    iss: `registry:${parentId}`,
    aud: `registry:${self}`,
    sub: `registry:${parentId}`,
    jti: randomUUID(),
  });

it("takes its parent's token as soon as the link is made, though it refused one a moment before", async () => {
  const verifier = new RegistryTokenVerifier({
    db,
    registryId: () => self,
    lineage: () => lineageOf({ id: self, path: "/aws", parentPath: "/", ancestors: [parentId] }, undefined),
    replays: new ReplayCache(),
    refreshParentKeys: async () => {},
  });
  // The parent's index follower calls before this registry has committed its link to the parent.
  await expect(verifier.verify(tokenOfParent())).rejects.toThrow(
    `wrong issuer: registry:${parentId} is neither this registry's parent nor one of its child registries`,
  );
  const { kty, crv, x } = publicKey.export({ format: "jwk" });
  parentLink = { parentRegistryId: parentId, keys: [{ kty: kty!, crv: crv!, x: x!, kid }] };
  expect(await verifier.verify(tokenOfParent())).toMatchObject({ subject: `registry:${parentId}` });
});

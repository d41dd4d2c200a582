import { createPrivateKey, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSecretKey, generateSecretKey, parseSecretKeys } from "@stream-registry/core";
import { registrationClaims, registrationDigest } from "@stream-registry/federation";
import { registryKeyOwner, type PublicJwk, type WrappedPrivateKey } from "@stream-registry/store";
import {
  copyDatabase,
  DECLARE_CLUSTER,
  eventually,
  everyRow,
  freePort,
  launchRegistry,
  mutate,
  postGraphQL,
  queryDatabase,
  queryRows,
  registryClient,
  startRegistryTree,
  TEST_SECRET_KEYS,
  testRegistryEnv,
  TREE_TOKEN,
  type LaunchedRegistry,
  type RegistryNode,
  type TestDatabase,
} from "@stream-registry/testkit";
import { signRegistrationProof } from "../src/auth/registration-proof.ts";
import { ENV, show } from "./support/seed-tree.ts";

const REGISTER = `mutation ($input: RegisterChildRegistryInput!) {
  registerChildRegistry(input: $input) { child { url } userErrors { code field message } } }`;
const UNREGISTER = `mutation ($input: UnregisterChildRegistryInput!) {
  unregisterChildRegistry(input: $input) { child { path } userErrors { code field message } } }`;
type UserErrors = { userErrors: { code: string; field: string[]; message: string }[] };
const PRODUCTION = { ...ENV, NODE_ENV: "production" };

/** A registration as a child sends it, to the parent at `url` and without any Authorization header. */
async function register(url: string, input: Record<string, unknown>): Promise<UserErrors> {
  const answer = await postGraphQL<{ registerChildRegistry: UserErrors }>(
    url,
    REGISTER,
    { input },
    { authorization: "" },
  );
  return answer.data!.registerChildRegistry;
}

/**
 * Signs registration proofs with the signing key in the registry database at `url`, unsealed
 * with `secretKeys` (its REGISTRY_SECRET_KEYS): as the registry itself does, for the parent `parent`.
 */
async function signerIn(url: string, secretKeys: string) {
  const [row] = await queryRows<{ kid: string; private_key: WrappedPrivateKey; public_jwk: PublicJwk }>(
    url,
    `SELECT kid, private_key, public_jwk FROM registry_key WHERE retired_at IS NULL`,
  );
  const seed = parseSecretKeys(secretKeys, "test").unwrap(row!.private_key, registryKeyOwner(row!.kid));
  const { kty, crv, x } = row!.public_jwk;
  const key = createPrivateKey({ key: { kty, crv, x, d: seed.toString("base64url") }, format: "jwk" });
  return (
    parent: string,
    purpose: "register" | "unregister",
    fields: Parameters<typeof registrationDigest>[1] & { registryId: string },
    now = Date.now(),
  ) =>
    signRegistrationProof(
      [{ kid: row!.kid, key }],
      registrationClaims(
        fields.registryId,
        parent,
        purpose,
        registrationDigest(purpose, fields),
        randomUUID(),
        now,
      ),
    );
}

// Issue 19, Must 2: a registered child is renewed, moved or removed at its parent only by a
// request signed with a key the parent pinned (fresh, once); nothing in its database acts as it.
// Two registries in their own processes, in production mode: "/" and its child "/aws" (PostgreSQL,
// so that its database can be copied as someone holding a backup would).
describe("registration proofs, and a copy of a child's database", { timeout: 240_000 }, () => {
  let tree: Map<string, RegistryNode>;
  const at = (path: string) => tree.get(path)!;
  beforeAll(async () => {
    tree = await startRegistryTree(["/", "/aws"], { kinds: { "/aws": "postgres" }, env: PRODUCTION });
  }, 300_000);
  afterAll(async () => Promise.all([...(tree?.values() ?? [])].map((node) => node.dispose())));

  /** What /aws registers with, and a proof signed with its own key (read as its operator can). */
  async function asTheChild() {
    const aws = at("/aws");
    const { registry, _service } = await aws.query<{
      registry: { id: string; version: string; keys: PublicJwk[] };
      _service: { sdl: string };
    }>(`{ registry { id version keys } _service { sdl } }`);
    const parent = (await show(at("/"))).registry.id;
    const fields = {
      registryId: registry.id,
      name: "aws",
      url: aws.url,
      version: registry.version,
      sdl: _service.sdl,
      keys: registry.keys,
    };
    const signer = await signerIn(aws.databaseUrl!, TEST_SECRET_KEYS);
    const prove = (purpose: "register" | "unregister", now = Date.now()) =>
      signer(parent, purpose, fields, now);
    return { fields, prove };
  }

  it("accepts a registration signed with the child's key once; a replayed, stale or moved one is refused", async () => {
    const { fields, prove } = await asTheChild();
    const proof = await prove("register");
    expect(await register(at("/").url, { ...fields, proof })).toEqual({
      child: { url: at("/aws").url },
      userErrors: [],
    });
    const refused = (message: RegExp) => ({
      child: null,
      userErrors: [
        { code: "UNAUTHENTICATED", field: ["input", "proof"], message: expect.stringMatching(message) },
      ],
    });
    expect(await register(at("/").url, { ...fields, proof })).toEqual(
      refused(/was shown before: each is accepted once/),
    );
    const stale = await prove("register", Date.now() - 10 * 60_000);
    expect(await register(at("/").url, { ...fields, proof: stale })).toEqual(refused(/stale/));
    // Signed for its own URL: it does not carry over to another (nor to unregistering).
    const elsewhere = `http://127.0.0.1:${await freePort()}/graphql`;
    expect(
      await register(at("/").url, { ...fields, url: elsewhere, proof: await prove("register") }),
    ).toEqual(refused(/signed for another request/));
    const unregistered = await postGraphQL<{ unregisterChildRegistry: UserErrors }>(
      at("/").url,
      UNREGISTER,
      { input: { registryId: fields.registryId, proof: await prove("register") } },
      { authorization: "" },
    );
    expect(unregistered.data!.unregisterChildRegistry.userErrors).toEqual([
      expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] }),
    ]);
    expect((await show(at("/"))).namespace.children.map((c) => c.url)).toEqual([at("/aws").url]);
  });

  it("gives whoever copies the child's database nothing that registers, moves or removes it, nor a secret", async () => {
    const aws = at("/aws");
    const password = `pw-${randomUUID()}`;
    await mutate(aws, DECLARE_CLUSTER, {
      input: { name: "vault", provider: "test", config: { "test.provider": {}, vault: { token: password } } },
    });
    const child = (await show(at("/"))).namespace.children[0]!;
    // A copy as a backup holds it (nobody may be connected to copy it): the child goes on.
    await aws.stop();
    let copy: TestDatabase | undefined;
    let thief: LaunchedRegistry | undefined;
    try {
      copy = await copyDatabase(aws.databaseUrl!, "stolen");
      await aws.start();
      const rows = await everyRow(copy.url!);
      expect(rows).toContain(child.registryId);
      expect(rows).not.toContain(TREE_TOKEN);
      expect(rows).not.toContain(password);

      // Started on the copy without the child's REGISTRY_SECRET_KEYS, it cannot unseal its key.
      const thiefKeys = formatSecretKey(generateSecretKey("thief"));
      const port = await freePort();
      const env = {
        ...testRegistryEnv,
        ...PRODUCTION,
        DATABASE_URL: copy.url!,
        REGISTRY_SECRET_KEYS: thiefKeys,
        PORT: String(port),
      };
      const sealed = launchRegistry(env);
      expect(await sealed.started).toBeUndefined();
      expect(sealed.logs.join("\n")).toContain("REGISTRY_SECRET_KEYS");
      // With the key deleted it starts, as the child's id, with a key of its own.
      await queryDatabase(copy.url!, `DELETE FROM registry_key`);
      thief = launchRegistry(env);
      const url = await thief.started;
      expect(url).toBeDefined();
      const copied = registryClient(url!);
      expect((await copied.query<{ registry: { id: string } }>(`{ registry { id } }`)).registry.id).toBe(
        child.registryId,
      );

      // Its link registers again, with its new key: refused.
      const failed = await eventually(
        async () => {
          const { namespace } = await show(copied);
          return namespace.parent?.status.phase === "FAILED" ? namespace.parent.status : undefined;
        },
        30_000,
        "the copy's registration to be refused",
      );
      expect(failed.message).toMatch(
        /UNAUTHENTICATED: proof is not signed by a key registry .* registered with here/,
      );
      // Declared again with the enrollment token, which its holder may know from elsewhere: refused.
      const declared = await copied.query<{ declareParentRegistry: UserErrors }>(
        `mutation ($input: DeclareParentRegistryInput!) { declareParentRegistry(input: $input) { userErrors { code field message } } }`,
        { input: { url: at("/").url, token: TREE_TOKEN } },
      );
      expect(declared.declareParentRegistry.userErrors).toEqual([
        expect.objectContaining({
          code: "UNAUTHENTICATED",
          message: expect.stringContaining("refused: proof is not signed by a key registry"),
        }),
      ]);
      // What the database held, and the token, without a signature: refused, to move and to remove.
      const { fields } = await asTheChild();
      const keys = (await copied.query<{ registry: { keys: PublicJwk[] } }>(`{ registry { keys } }`)).registry
        .keys;
      expect(
        (await register(at("/").url, { ...fields, url: url!, keys, token: TREE_TOKEN })).userErrors,
      ).toEqual([expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] })]);
      const removed = await postGraphQL<{ unregisterChildRegistry: UserErrors }>(
        at("/").url,
        UNREGISTER,
        { input: { registryId: child.registryId, proof: TREE_TOKEN } },
        { authorization: "" },
      );
      expect(removed.data!.unregisterChildRegistry.userErrors).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] }),
      ]);
      // Signed with the key the copy made for itself, as it would to leave or move: refused.
      const thiefSigns = await signerIn(copy.url!, thiefKeys);
      const parent = (await show(at("/"))).registry.id;
      const leave = await postGraphQL<{ unregisterChildRegistry: UserErrors }>(
        at("/").url,
        UNREGISTER,
        { input: { registryId: child.registryId, proof: await thiefSigns(parent, "unregister", fields) } },
        { authorization: "" },
      );
      expect(leave.data!.unregisterChildRegistry.userErrors).toEqual([
        expect.objectContaining({
          code: "UNAUTHENTICATED",
          message: expect.stringContaining("proof is not signed by a key registry"),
        }),
      ]);
      const moved = { ...fields, url: url!, keys };
      const move = await register(at("/").url, {
        ...moved,
        proof: await thiefSigns(parent, "register", moved),
      });
      expect(move.userErrors).toEqual([
        expect.objectContaining({
          code: "UNAUTHENTICATED",
          message: expect.stringContaining("proof is not signed by a key registry"),
        }),
      ]);

      // The parent still knows the child where it is, with its keys, and the child its parent.
      const after = (await show(at("/"))).namespace.children;
      expect(after).toEqual([expect.objectContaining({ url: aws.url, registryId: child.registryId })]);
      expect((await show(aws)).namespace.parent?.status.phase).toBe("ONLINE");
      const pinned = await at("/").query<{ childRegistry: { keys: PublicJwk[] } }>(
        `query ($id: String!) { childRegistry(registryId: $id) { keys } }`,
        { id: child.registryId },
      );
      expect(pinned.childRegistry.keys.map((k) => k.kid)).toEqual(fields.keys.map((k) => k.kid));
    } finally {
      thief?.kill("SIGKILL");
      await thief?.exited;
      await copy?.drop();
    }
  });
});

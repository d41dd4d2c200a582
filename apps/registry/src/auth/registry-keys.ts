import { createPrivateKey, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import type { Keyring, Principal } from "@stream-registry/core";
import { registrationClaims, type RegistrationPurpose } from "@stream-registry/federation";
import {
  addFirstRegistryKey,
  addRegistryKey,
  listRegistryKeys,
  registryKeyOwner,
  writeTransaction,
  type Database,
  type PublicJwk,
  type RegistryKeyRow,
} from "@stream-registry/store";
import { createSigner } from "fast-jwt";
import { calculateJwkThumbprint } from "jose";
import { actClaimOf, type ActClaim } from "./forwarded-principal.ts";
import { signRegistrationProof } from "./registration-proof.ts";

/** The longest a token one registry signs for another lives: a stolen one is soon worth nothing. */
export const REGISTRY_TOKEN_TTL_S = 60;
/** The algorithm of registry tokens: EdDSA, with Ed25519 keys. */
export const REGISTRY_KEY_ALGORITHMS = ["EdDSA"] as const;
/** How long a retired key is still published: well past the lifetime of the tokens it signed. */
const RETIRED_PUBLISHED_MS = 10 * 60_000;
/** How often the keys are read again (another process sharing the database may have rotated them). */
const REREAD_MS = 60_000;

/** The claims of a token one registry sends another. */
interface RegistryClaims {
  sub: string;
  /** Who vouches for `sub`: the registry that verified it, or its OIDC issuer (issue 19). */
  sub_iss?: string;
  groups?: string[];
  act?: ActClaim;
}

/** Signs a token with one key: its claims, and iat, exp (REGISTRY_TOKEN_TTL_S later) and kid added. */
type Sign = (claims: RegistryClaims & { iss: string; aud: string; jti: string }) => string;

/**
 * This registry's Ed25519 signing keys (registry_key): the newest signs the tokens it sends other
 * registries of its tree (for a user it acts for, or on its own), the others are retired and still
 * published until the tokens they signed have expired. Made at the first start; ROTATE REGISTRY KEY
 * adds one. The private key (its 32-byte seed) is kept wrapped with the secrets key-encryption key.
 */
export class RegistryKeys {
  private rows: RegistryKeyRow[] = [];
  private signer: { kid: string; sign: Sign } | undefined;
  private readAt = 0;
  private rereading: Promise<void> | undefined;

  private constructor(
    private readonly db: Database,
    private readonly keyring: Keyring,
    /** This registry's id: the issuer of its tokens. */
    private readonly registryId: () => string,
    /** After a rotation: the parent is told the new keys (a registration). */
    private readonly rotated: () => Promise<void>,
  ) {}

  /** Reads the keys, making the first one at a registry's first start. */
  static async load(
    db: Database,
    keyring: Keyring,
    registryId: () => string,
    rotated: () => Promise<void>,
  ): Promise<RegistryKeys> {
    const keys = new RegistryKeys(db, keyring, registryId, rotated);
    if ((await listRegistryKeys(db.prisma)).length === 0)
      await addFirstRegistryKey(db.prisma, await keys.newKey());
    await keys.reread();
    return keys;
  }

  /** The public keys others verify this registry's tokens with: the signing one first. */
  publicKeys(now = Date.now()): PublicJwk[] {
    this.rereadIfStale(now);
    return this.rows
      .filter((row) => row.retiredAt === null || row.retiredAt.getTime() > now - RETIRED_PUBLISHED_MS)
      .map((row) => row.publicJwk);
  }

  /**
   * A new key signs from now on; the others are retired (still published, and verifying, until
   * the tokens they signed have expired). The parent is asked to register this registry again, with
   * the new keys; the children read them when a token names the new key. Returns the new key id
   * and the keys published.
   */
  async rotate(): Promise<{ kid: string; keys: PublicJwk[] }> {
    const key = await this.newKey();
    await writeTransaction(this.db.prisma, (tx) =>
      addRegistryKey(tx, key, new Date(Date.now() - RETIRED_PUBLISHED_MS)),
    );
    await this.reread();
    await this.rotated();
    return { kid: key.kid, keys: this.publicKeys() };
  }

  /**
   * A token for the registry `audience` (its id) carrying `principal`: who a request is for (its
   * subject and issuer; a user's groups, which only a child trusting the same OIDC issuer counts;
   * this registry as the actor, within it the registries the request came through before), or,
   * for this registry's own calls, none.
   */
  tokenFor(audience: string, principal?: Principal): string {
    const self = this.registryId();
    const claims: RegistryClaims = principal
      ? {
          sub: principal.subject,
          sub_iss: principal.issuer,
          ...(principal.issuer.startsWith("registry:") ? {} : { groups: [...principal.groups] }),
          act: actClaimOf(self, principal),
        }
      : { sub: `registry:${self}` };
    return this.sign(`registry:${audience}`, claims);
  }

  /** `authorization` headers of tokenFor. */
  headersFor(audience: string, principal?: Principal): { authorization: string } {
    return { authorization: `Bearer ${this.tokenFor(audience, principal)}` };
  }

  /**
   * A proof for the parent `parent` (its registry id) that this registry asks to `purpose` what
   * `digest` names, signed with every key it holds (retired ones too, until they are pruned): the
   * parent pinned some of them (docs/security.md, "Registration").
   */
  async proveRegistration(parent: string, purpose: RegistrationPurpose, digest: string): Promise<string> {
    const rows = await listRegistryKeys(this.db.prisma);
    const keys = rows.map((row) => ({ kid: row.kid, key: this.privateKeyOf(row) }));
    return signRegistrationProof(
      keys,
      registrationClaims(this.registryId(), parent, purpose, digest, randomUUID()),
    );
  }

  private privateKeyOf(row: RegistryKeyRow): KeyObject {
    const seed = this.keyring.unwrap(row.privateKey, registryKeyOwner(row.kid));
    const { kty, crv, x } = row.publicJwk;
    return createPrivateKey({ key: { kty, crv, x, d: seed.toString("base64url") }, format: "jwk" });
  }

  private sign(audience: string, claims: RegistryClaims): string {
    this.rereadIfStale(Date.now());
    const signer = this.signer;
    if (!signer) throw new Error("this registry has no signing key");
    return signer.sign({ ...claims, iss: `registry:${this.registryId()}`, aud: audience, jti: randomUUID() });
  }

  private rereadIfStale(now: number): void {
    if (now - this.readAt < REREAD_MS || this.rereading) return;
    this.rereading = this.reread()
      .catch(() => {
        // Kept as they are: the keys read before still sign and verify.
      })
      .finally(() => (this.rereading = undefined));
  }

  private async reread(): Promise<void> {
    const rows = await listRegistryKeys(this.db.prisma);
    const current = rows.find((row) => row.retiredAt === null) ?? rows[0];
    if (current && current.kid !== this.signer?.kid) {
      const key = this.privateKeyOf(current);
      const sign: Sign = createSigner({
        key: key.export({ format: "pem", type: "pkcs8" }) as string,
        algorithm: "EdDSA",
        kid: current.kid,
        expiresIn: REGISTRY_TOKEN_TTL_S * 1000,
      });
      this.signer = { kid: current.kid, sign };
    }
    this.rows = rows;
    this.readAt = Date.now();
  }

  /** A new Ed25519 key: its public JWK (kid its RFC 7638 thumbprint) and its seed, wrapped. */
  private async newKey(): Promise<Pick<RegistryKeyRow, "kid" | "publicJwk" | "privateKey">> {
    const { privateKey } = generateKeyPairSync("ed25519");
    const { x, d } = privateKey.export({ format: "jwk" });
    const bare = { kty: "OKP", crv: "Ed25519", x: x! };
    const kid = await calculateJwkThumbprint(bare);
    const wrapped = this.keyring.wrap(Buffer.from(d!, "base64url"), registryKeyOwner(kid));
    return { kid, publicJwk: { ...bare, kid, alg: "EdDSA", use: "sig" }, privateKey: wrapped };
  }
}

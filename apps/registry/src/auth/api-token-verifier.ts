import type { Principal } from "@stream-registry/core";
import {
  DatabaseRebuildingError,
  findApiTokenByHash,
  touchApiToken,
  type ApiTokenRecord,
  type Database,
} from "@stream-registry/store";
import type { Logger } from "../logger.ts";
import { hashApiToken, isApiTokenShape } from "./api-token-value.ts";
import { AuthenticationError } from "./authentication-error.ts";

/**
 * How long a token found stays in memory: requests in a burst cost no query each. Revoking through
 * this process forgets them at once; another process sharing a PostgreSQL database sees a
 * revocation within this time.
 */
const CACHE_MS = 5_000;
/** The tokens kept in memory at most: more (a flood of distinct tokens) empties the cache. */
const CACHE_SIZE = 10_000;
/** How often a token's last use is written at most. */
const TOUCH_MS = 60_000;

/** Verifies API tokens ("srt_..."): looked up by their SHA-256; unknown, revoked and expired ones are refused. */
export class ApiTokenVerifier {
  private readonly cache = new Map<string, { token: ApiTokenRecord; until: number }>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    /** This registry's id: the issuer of its API tokens. */
    private readonly registryId: () => string,
    /** True while migrations rebuild an emptied database (MigrationGuard.applying). */
    private readonly rebuilding: () => boolean = () => false,
  ) {}

  async verify(credential: string, now = Date.now()): Promise<Principal> {
    if (!isApiTokenShape(credential))
      throw new AuthenticationError("malformed token: not an API token (srt_...)");
    const hash = hashApiToken(credential);
    const token = await this.find(hash, now);
    // Its tables are made before its first admin token is made again: a token not found then
    // may only not be back yet, and is answered 503 (retry), not 401 (issue 19, finding 9).
    if (!token && this.rebuilding()) throw new DatabaseRebuildingError();
    if (!token) throw new AuthenticationError("unknown token");
    if (token.revokedAt) throw new AuthenticationError(`token revoked (${token.name})`);
    if (token.expiresAt && token.expiresAt.getTime() <= now) {
      throw new AuthenticationError(`token expired (${token.name}, at ${token.expiresAt.toISOString()})`);
    }
    this.touch(token, now);
    return {
      subject: `token:${token.name}`,
      issuer: `registry:${this.registryId()}`,
      local: true,
      groups: [...token.groups],
      via: "token",
    };
  }

  /** Drops what is kept in memory: a token revoked here is refused at once. */
  forget(): void {
    this.cache.clear();
  }

  private async find(hash: string, now: number): Promise<ApiTokenRecord | null> {
    const kept = this.cache.get(hash);
    if (kept && kept.until > now) return kept.token;
    const token = await findApiTokenByHash(this.db.prisma, hash);
    if (this.cache.size >= CACHE_SIZE) this.cache.clear();
    if (token) this.cache.set(hash, { token, until: now + CACHE_MS });
    else this.cache.delete(hash);
    return token;
  }

  /** Writes the last use, once a TOUCH_MS per token, after the request: it never delays one. */
  private touch(token: ApiTokenRecord, now: number): void {
    if ((this.touched.get(token.id) ?? 0) > now - TOUCH_MS) return;
    if (this.touched.size >= CACHE_SIZE) this.touched.clear();
    this.touched.set(token.id, now);
    touchApiToken(this.db.prisma, token.id, new Date(now)).catch((error: unknown) =>
      this.logger.debug({ err: error, token: token.name }, "an API token's last use could not be recorded"),
    );
  }
}

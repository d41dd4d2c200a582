/** Token ids remembered at most: more tokens than this within their lifetime are refused. */
const MAX_ENTRIES = 200_000;
/** How often expired ids are dropped. */
const PRUNE_MS = 10_000;

/**
 * The ids (jti) of the tokens accepted and not yet expired: a token seen twice is a replay. Tokens
 * live at most a minute, so the ids kept are about a minute's worth; an expired id is dropped when room
 * is needed, as its token is refused for its age anyway. In this process only: registry processes sharing a
 * database each keep their own.
 */
export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private prunedAt = 0;

  /** Records `jti` of a token valid until `expiresAt` (epoch ms): whether it is new, seen before, or there is no room. */
  add(jti: string, expiresAt: number, now = Date.now()): "new" | "replayed" | "full" {
    if (this.seen.has(jti)) return "replayed";
    if (this.seen.size >= MAX_ENTRIES || now - this.prunedAt > PRUNE_MS) this.prune(now);
    if (this.seen.size >= MAX_ENTRIES) return "full";
    this.seen.set(jti, expiresAt);
    return "new";
  }

  get size(): number {
    return this.seen.size;
  }

  /** Drops the ids of expired tokens. */
  prune(now = Date.now()): void {
    this.prunedAt = now;
    for (const [jti, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(jti);
  }
}

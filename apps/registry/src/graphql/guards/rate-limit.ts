import { ErrorCode, RegistryError, type Principal } from "@stream-registry/core";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

/** What one principal may spend (docs/security.md "Rate limits"). */
export interface RateLimitConfig {
  /** Query-cost points one principal may spend per window; 0: no rate limit. */
  points: number;
  /** The window's length, in seconds. */
  windowSeconds: number;
}

/**
 * 20,000,000 points per 10 s: forty requests a second of the largest cost one may have
 * (QUERY_MAX_COST, 50,000), sustained. srctl, the tests and the benchmarks stay far below (the
 * federation benchmark's LIVE first page, 50 streams with their bindings from a root of three
 * children, costs 3,501 four times: 14,004).
 */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { points: 20_000_000, windowSeconds: 10 };

/** Who a request is from, as the rate limit tells callers apart. */
export interface RateCaller {
  principal: Principal;
  /** The address the request came from (the socket's peer). */
  remoteAddress: string | undefined;
  /** Registries the operation passed through before this one (x-registry-hops). */
  hops: number;
}

/**
 * Whose allowance a request spends, or undefined for none: the principal's subject; callers
 * without an identity of their own (REGISTRY_AUTH=none's anonymous, a registration without a
 * credential) by their address. The registry's own parent spends nothing here: it charged the user
 * it acts for already, and its own calls (index, probes) must never be refused by a child. With
 * REGISTRY_AUTH=none a parent cannot be told from anyone: an operation carrying the tree's hop
 * header is taken as forwarded by it, as the HTTP layer takes that header then.
 */
export function rateKey({ principal, remoteAddress, hops }: RateCaller): string | undefined {
  if (principal.via === "parent" || (principal.via === "none" && hops > 0)) return undefined;
  if (principal.via === "none" || principal.via === "enrollment")
    return `${principal.subject} from ${remoteAddress ?? "an unknown address"}`;
  return principal.subject;
}

/** What a refused charge says (extensions of the RATE_LIMITED error). */
export interface RateRefusal {
  /** The key charged: a subject, or "anonymous from <address>". */
  who: string;
  points: number;
  windowSeconds: number;
  /** What the refused charge would have cost. */
  cost: number;
  /** Child registries the charge was for (0: the operation itself). */
  children: number;
  /** Points left in the window, before the refused charge. */
  remaining: number;
  retryAfterSeconds: number;
}

/** RATE_LIMITED (HTTP 429), naming the limit and when to retry; the facts go in its extensions. */
export function rateLimitedError(refusal: RateRefusal): RegistryError {
  const { who, points, windowSeconds, cost, children, remaining, retryAfterSeconds } = refusal;
  const limit = `${who} may spend ${points} query-cost points per ${windowSeconds} s`;
  const what =
    children === 0
      ? `this request costs ${cost} (its estimated cost)`
      : `asking ${children} child ${children === 1 ? "registry" : "registries"} costs ${cost} ` +
        `(the request's estimated cost for each)`;
  const message =
    cost > points
      ? `rate limit: ${limit}, and ${what}, more than the whole limit: ask for less ` +
        `(smaller pages, fewer fields, one namespace rather than the subtree)`
      : `rate limit: ${limit}, and ${what}, with ${remaining} left; retry in ${retryAfterSeconds} s`;
  return new RegistryError(ErrorCode.RATE_LIMITED, message, [], {
    limit: "rate",
    points,
    windowSeconds,
    cost,
    remaining,
    retryAfterSeconds,
  });
}

/** A charge: undefined when spent, else the refusal (nothing was spent). */
type Spend = (points: number, children: number) => Promise<RegistryError | undefined>;

/**
 * The rate limit of one registry process: an in-memory fixed window per principal
 * (rate-limiter-flexible's RateLimiterMemory), spent in query-cost points. A refused charge
 * spends nothing, so a request too big for what is left does not use up what smaller ones could.
 */
export class RateLimits {
  private readonly limiter: RateLimiterMemory | undefined;

  constructor(readonly config: RateLimitConfig) {
    this.limiter =
      config.points > 0
        ? new RateLimiterMemory({ points: config.points, duration: config.windowSeconds })
        : undefined;
  }

  /** The spending of one request by `caller`. */
  forRequest(caller: RateCaller): RequestRate {
    const key = this.limiter && rateKey(caller);
    return new RequestRate(
      key === undefined ? undefined : (points, children) => this.spend(key, points, children),
    );
  }

  private async spend(key: string, cost: number, children: number): Promise<RegistryError | undefined> {
    const limiter = this.limiter!;
    try {
      await limiter.consume(key, cost);
      return undefined;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      await limiter.reward(key, cost);
      return rateLimitedError({
        who: key,
        points: this.config.points,
        windowSeconds: this.config.windowSeconds,
        cost,
        children,
        remaining: Math.max(0, this.config.points - (error.consumedPoints - cost)),
        retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
      });
    }
  }
}

/**
 * What one request spends: its operation's estimated cost once it is resolved (rate-limit-plugin.ts),
 * then that cost again for each child registry it asks, before the calls go out
 * (`chargeChildren`). A holder object on the context: Apollo hands resolvers a shallow copy of it.
 */
export class RequestRate {
  /** The operation's estimated cost, as the cost limit computed it (budget-plugin.ts). */
  estimated: number | undefined;
  /** The operation's estimated cost, once charged. */
  private cost = 0;
  /** A refused charge for children: the request's answer is this refusal alone. */
  refused: RegistryError | undefined;

  /** `spend` undefined: a caller the rate limit does not count (or no rate limit). */
  constructor(private readonly spend: Spend | undefined) {}

  /** Whether this request's caller spends anything (a rate limit is set, and not the parent). */
  get counted(): boolean {
    return this.spend !== undefined;
  }

  /**
   * Charges the operation's cost, once a request (a pass-through that went on as usual charged it
   * already); the refusal when the caller has not that much left.
   */
  async chargeOperation(cost: number): Promise<RegistryError | undefined> {
    if (this.cost > 0) return undefined;
    const refusal = await this.spend?.(cost, 0);
    if (!refusal) this.cost = cost;
    return refusal;
  }

  /**
   * Charges the operation's cost once per child registry about to be asked, all at once; throws
   * RATE_LIMITED (and no call may go out) when the caller has not that much left.
   */
  async chargeChildren(children: number): Promise<void> {
    if (this.refused) throw this.refused;
    if (!this.spend || children <= 0 || this.cost === 0) return;
    const refusal = await this.spend(this.cost * children, children);
    if (refusal) throw (this.refused = refusal);
  }
}

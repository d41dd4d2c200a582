import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import {
  ErrorCode,
  formatHostPort,
  normalizeHost,
  userError,
  type ConnectAllowList,
  type UserError,
} from "@stream-registry/core";

/** Every address a host name resolves to (as a connection would, through the system's resolver). */
export type LookupAll = (host: string) => Promise<string[]>;

const lookupAll: LookupAll = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((found) => found.address);

/** How long a name's resolution may take before the name is refused. */
const LOOKUP_TIMEOUT_MS = 2_000;

/** An address a caller's input would make this registry connect to. */
export interface ConnectTarget {
  host: string;
  port: number;
  /** The input field that names it, e.g. ["input", "config", "apache.kafka", "bootstrap.servers"]. */
  field: string[];
  /** What it is, for the message: "bootstrap server", "parent registry URL". */
  label: string;
}

/**
 * REGISTRY_CONNECT_ALLOW at work (docs/security.md, "Where the registry connects"): whether the
 * registry may connect where a caller says, decided before anything connects.
 *
 * - No list: everything is allowed (the default).
 * - A name the list names (exactly or below a `*.` wildcard, with the port) is allowed as it is,
 *   unresolved: its owner's DNS is trusted.
 * - An IP address is allowed if an address or network entry holds it (with the port).
 * - Any other name is resolved (all its addresses), and allowed only if it has some and every one
 *   is in an allowed network with the port; a name that does not resolve (within 2 s) is refused.
 *   With no address or network in the list, it is refused without being resolved.
 *
 * A refusal says the same whatever the address is (open, closed, missing, slow): nothing was
 * asked of it.
 */
export class ConnectGuard {
  static readonly UNRESTRICTED = new ConnectGuard(undefined);

  constructor(
    readonly list: ConnectAllowList | undefined,
    private readonly lookup: LookupAll = lookupAll,
    private readonly lookupTimeoutMs = LOOKUP_TIMEOUT_MS,
  ) {}

  /** Whether an allow-list is set. */
  get restricted(): boolean {
    return this.list !== undefined;
  }

  async allows(host: string, port: number): Promise<boolean> {
    const list = this.list;
    if (!list) return true;
    if (list.allowsName(host, port)) return true;
    const name = normalizeHost(host);
    if (isIP(name) !== 0) return list.allowsAddress(name, port);
    if (!list.hasNetworks) return false;
    const addresses = await this.resolve(name);
    return addresses.length > 0 && addresses.every((address) => list.allowsAddress(address, port));
  }

  /** An INVALID_INPUT error on each target's field for each target not allowed; none without a list. */
  async refusals(targets: readonly ConnectTarget[]): Promise<UserError[]> {
    if (!this.list) return [];
    const allowed = await Promise.all(targets.map((target) => this.allows(target.host, target.port)));
    return targets
      .filter((_, index) => !allowed[index])
      .map((target) =>
        userError(
          ErrorCode.INVALID_INPUT,
          target.field,
          `${target.label} ${formatHostPort(target.host, target.port)} is not in REGISTRY_CONNECT_ALLOW: ` +
            `this registry connects only to the hosts and networks its operator allows`,
        ),
      );
  }

  private async resolve(name: string): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string[]>((resolve) => {
      timer = setTimeout(() => resolve([]), this.lookupTimeoutMs);
    });
    try {
      return await Promise.race([this.lookup(name).catch(() => []), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The start-up line: what is allowed, or, in production, that anything is. */
export function logConnectAllow(
  list: ConnectAllowList | undefined,
  production: boolean,
  logger: { info(object: object, message: string): void; warn(message: string): void },
): void {
  if (list) {
    logger.info(
      { connectAllow: list.toString() },
      "callers may make this registry connect only where REGISTRY_CONNECT_ALLOW allows",
    );
  } else if (production) {
    logger.warn(
      "REGISTRY_CONNECT_ALLOW is not set: an admin may make this registry connect to any host and port (docs/security.md)",
    );
  }
}

/** Where an http(s) URL (checked already: checkRegistryUrl) makes the registry connect. */
export function urlTarget(url: string, field: string[], label: string): ConnectTarget {
  const parsed = new URL(url);
  const port = parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
  return { host: normalizeHost(parsed.hostname), port, field, label };
}

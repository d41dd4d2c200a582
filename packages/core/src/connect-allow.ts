import { BlockList, isIP } from "node:net";

/** Ports an entry allows, both ends included; none given: every port. */
export interface PortRange {
  from: number;
  to: number;
}

/** One entry of REGISTRY_CONNECT_ALLOW, as parsed. */
export type ConnectAllowEntry =
  | { kind: "host"; name: string; ports: PortRange | undefined; text: string }
  /** `*.acme.internal`: any name ending in `.acme.internal` (not `acme.internal` itself). */
  | { kind: "wildcard"; suffix: string; ports: PortRange | undefined; text: string }
  /** An address (a network of one) or a CIDR network, IPv4 or IPv6. */
  | { kind: "network"; network: BlockList; ports: PortRange | undefined; text: string };

const LABEL = "[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAX_HOST_NAME = 253;

/**
 * What the registry may connect to when a caller names an address (a cluster's endpoints, a
 * parent's or a child's URL): REGISTRY_CONNECT_ALLOW, parsed. Host names match by name (exactly,
 * or below a `*.` wildcard); addresses and networks match IP addresses. Which of the two applies
 * to a name that is not listed (its resolved addresses) is the caller's rule: see the registry's
 * ConnectGuard. Pure: nothing here resolves or connects.
 */
export class ConnectAllowList {
  readonly entries: readonly ConnectAllowEntry[];

  constructor(entries: readonly ConnectAllowEntry[]) {
    this.entries = [...entries];
  }

  /** Whether any entry is an address or a network (otherwise only names can be allowed). */
  get hasNetworks(): boolean {
    return this.entries.some((entry) => entry.kind === "network");
  }

  /**
   * Whether `host` is allowed by name at `port`: an exact host entry, or a wildcard it is below.
   * An IP address is never allowed by name (see allowsAddress).
   */
  allowsName(host: string, port: number): boolean {
    const name = normalizeHost(host);
    if (isIP(name) !== 0) return false;
    return this.entries.some(
      (entry) =>
        portAllowed(entry.ports, port) &&
        ((entry.kind === "host" && entry.name === name) ||
          (entry.kind === "wildcard" && name.length > entry.suffix.length && name.endsWith(entry.suffix))),
    );
  }

  /** Whether the IP address `address` is in an allowed address or network at `port`. */
  allowsAddress(address: string, port: number): boolean {
    const ip = normalizeHost(address);
    const family = isIP(ip);
    if (family === 0) return false;
    const type = family === 4 ? "ipv4" : "ipv6";
    return this.entries.some(
      (entry) => entry.kind === "network" && portAllowed(entry.ports, port) && entry.network.check(ip, type),
    );
  }

  /** The entries as written, for the start-up log. */
  toString(): string {
    return this.entries.length === 0 ? "none" : this.entries.map((entry) => entry.text).join(",");
  }
}

/**
 * Parses REGISTRY_CONNECT_ALLOW: comma-separated entries, each a host name (`kafka1.acme.internal`),
 * a wildcard (`*.acme.internal`), an IPv4 or IPv6 address (`10.1.2.3`, `fd00::1`) or a CIDR network
 * (`10.0.0.0/8`, `fd00::/8`), with an optional `:port` or `:from-to` (an IPv6 address or network
 * with a port in brackets: `[fd00::/8]:9092`). `none` allows nothing. Every bad entry is
 * reported, numbered from 1 and quoted; the list is usable only when `errors` is empty.
 */
export function parseConnectAllow(value: string): { list: ConnectAllowList; errors: string[] } {
  if (value.trim().toLowerCase() === "none") return { list: new ConnectAllowList([]), errors: [] };
  const entries: ConnectAllowEntry[] = [];
  const errors: string[] = [];
  for (const [index, raw] of value.split(",").entries()) {
    const text = raw.trim();
    const parsed = parseEntry(text);
    if (typeof parsed === "string") errors.push(`entry ${index + 1} (${JSON.stringify(text)}) ${parsed}`);
    else entries.push(parsed);
  }
  return { list: new ConnectAllowList(entries), errors };
}

/** A host as the allow-list compares it: lower case, no brackets around IPv6, no final dot. */
export function normalizeHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, "");
}

/** An address to show in messages: host:port, an IPv6 address in brackets. */
export function formatHostPort(host: string, port: number): string {
  const bare = normalizeHost(host);
  return isIP(bare) === 6 ? `[${bare}]:${port}` : `${bare}:${port}`;
}

function portAllowed(ports: PortRange | undefined, port: number): boolean {
  return ports === undefined || (port >= ports.from && port <= ports.to);
}

const EXAMPLES =
  'expected a host name ("kafka1.acme.internal"), a wildcard ("*.acme.internal"), an address ' +
  '("10.1.2.3", "fd00::1") or a network ("10.0.0.0/8", "fd00::/8"), each optionally with ":port" ' +
  'or ":from-to" (IPv6 with a port in brackets: "[fd00::/8]:9092")';

/** One entry, or why it is wrong (a phrase completing "entry N ("...") "). */
function parseEntry(text: string): ConnectAllowEntry | string {
  if (text === "") return "is empty: remove the extra comma";
  if (text.includes("://")) return 'is a URL: give its host and port, e.g. "registry.acme.internal:443"';
  let where: string;
  let portText: string | undefined;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) return `has "[" without "]"; ${EXAMPLES}`;
    where = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) return `has ${JSON.stringify(rest)} after "]"; ${EXAMPLES}`;
    if (isIP(where.split("/")[0]!) !== 6) return `holds no IPv6 address in brackets; ${EXAMPLES}`;
    portText = rest === "" ? undefined : rest.slice(1);
  } else if ((text.match(/:/g) ?? []).length >= 2) {
    where = text; // IPv6 without brackets: no port
  } else {
    const colon = text.indexOf(":");
    where = colon < 0 ? text : text.slice(0, colon);
    portText = colon < 0 ? undefined : text.slice(colon + 1);
  }
  const ports = portText === undefined ? undefined : parsePorts(portText);
  if (typeof ports === "string") return ports;
  if (where.includes("/")) return parseNetwork(where, ports, text);
  const family = isIP(where);
  if (family !== 0) {
    const network = new BlockList();
    network.addAddress(where, family === 4 ? "ipv4" : "ipv6");
    return { kind: "network", network, ports, text };
  }
  if (where === "*" || where === "*.")
    return 'allows every host: leave REGISTRY_CONNECT_ALLOW unset for no restriction, or list "0.0.0.0/0" and "::/0" with a port';
  const wildcard = where.startsWith("*.");
  const name = normalizeHost(wildcard ? where.slice(2) : where);
  if (name.length === 0 || name.length > MAX_HOST_NAME || !HOST_NAME.test(name)) {
    return where.includes("*") && !wildcard
      ? `has "*" elsewhere than as its whole first label ("*.acme.internal"); ${EXAMPLES}`
      : `is not a host name, an address or a network; ${EXAMPLES}`;
  }
  return wildcard
    ? { kind: "wildcard", suffix: `.${name}`, ports, text }
    : { kind: "host", name, ports, text };
}

function parseNetwork(where: string, ports: PortRange | undefined, text: string): ConnectAllowEntry | string {
  const [address = "", prefixText = "", ...more] = where.split("/");
  const family = isIP(address);
  if (family === 0 || more.length > 0)
    return `is not a network: expected an address, "/" and a prefix length, e.g. "10.0.0.0/8"`;
  const max = family === 4 ? 32 : 128;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) {
    return `has prefix length ${JSON.stringify(prefixText)}: an IPv${family} network's is 0 to ${max}`;
  }
  const network = new BlockList();
  network.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  return { kind: "network", network, ports, text };
}

function parsePorts(text: string): PortRange | string {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text);
  const from = match ? Number(match[1]) : NaN;
  const to = match?.[2] === undefined ? from : Number(match[2]);
  if (!match || from < 1 || to > 65535 || from > to) {
    return `has port ${JSON.stringify(text)}: expected a port from 1 to 65535, or a range "from-to" such as "9092-9094"`;
  }
  return { from, to };
}

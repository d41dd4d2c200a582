import { parseConnectAllow } from "@stream-registry/core";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { ConnectGuard, logConnectAllow, urlTarget } from "../src/services/connect-guard.ts";
import { refusal } from "./support/connect-allow.ts";

// The guard and its configuration in process; connect-allow.test.ts has it at a registry process.
describe("REGISTRY_CONNECT_ALLOW: the guard's rule", () => {
  const guard = (value: string, addresses: Record<string, string[]> = {}) => {
    const asked: string[] = [];
    const lookup = async (host: string) => {
      asked.push(host);
      const found = addresses[host];
      if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      return found;
    };
    return { guard: new ConnectGuard(parseConnectAllow(value).list, lookup, 200), asked };
  };

  it("allows everything, resolving nothing, when unset", async () => {
    expect(ConnectGuard.UNRESTRICTED.restricted).toBe(false);
    expect(await ConnectGuard.UNRESTRICTED.allows("anything.test", 5432)).toBe(true);
    expect(
      await ConnectGuard.UNRESTRICTED.refusals([{ host: "10.0.0.1", port: 1, field: [], label: "x" }]),
    ).toEqual([]);
  });

  it("allows a listed name as it is, unresolved", async () => {
    const { guard: g, asked } = guard("*.acme.internal:9092,10.0.0.0/8");
    expect(await g.allows("b1.acme.internal", 9092)).toBe(true);
    expect(asked).toEqual([]);
  });

  it("allows a name not listed only if every address it resolves to is in an allowed network", async () => {
    const { guard: g, asked } = guard("10.0.0.0/8:9092,fd00::/8", {
      "inside.test": ["10.1.1.1", "fd00::1"],
      "straddling.test": ["10.1.1.1", "192.168.0.1"],
      "inside-v6.test": ["fd00::2"],
    });
    expect(await g.allows("inside.test", 9092)).toBe(true);
    expect(await g.allows("inside.test", 9093)).toBe(false); // fd00::1 any port, 10.1.1.1 only 9092
    expect(await g.allows("inside-v6.test", 5432)).toBe(true);
    expect(await g.allows("straddling.test", 9092)).toBe(false);
    expect(await g.allows("missing.test", 9092)).toBe(false);
    expect(asked).toEqual([
      "inside.test",
      "inside.test",
      "inside-v6.test",
      "straddling.test",
      "missing.test",
    ]);
  });

  it("refuses a name not listed without resolving it when the list has no networks", async () => {
    const { guard: g, asked } = guard("*.acme.internal", { "other.test": ["10.0.0.1"] });
    expect(await g.allows("other.test", 9092)).toBe(false);
    expect(asked).toEqual([]);
  });

  it("refuses a name whose resolution does not answer in time", async () => {
    const slow = new ConnectGuard(parseConnectAllow("10.0.0.0/8").list, () => new Promise(() => {}), 50);
    const started = Date.now();
    expect(await slow.allows("tarpit.test", 9092)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("resolves numeric host names as a connection would (2130706433 is 127.0.0.1)", async () => {
    const real = new ConnectGuard(parseConnectAllow("127.0.0.0/8:4000").list);
    expect(await real.allows("2130706433", 4000)).toBe(true);
    expect(await real.allows("2130706433", 4001)).toBe(false);
    expect(await real.allows("127.1", 4001)).toBe(false);
  });

  it("refuses each address not allowed on its field, with one message whatever the address", async () => {
    const { guard: g } = guard("10.0.0.0/8");
    const errors = await g.refusals([
      { host: "10.0.0.1", port: 9092, field: ["a"], label: "bootstrap server" },
      { host: "fd00::1", port: 9092, field: ["b"], label: "bootstrap server" },
      { host: "nowhere.test", port: 9092, field: ["c"], label: "bootstrap server" },
    ]);
    expect(errors).toEqual([
      { code: "INVALID_INPUT", field: ["b"], message: refusal("bootstrap server", "[fd00::1]:9092") },
      { code: "INVALID_INPUT", field: ["c"], message: refusal("bootstrap server", "nowhere.test:9092") },
    ]);
  });

  it("takes a URL's port, or its scheme's", () => {
    expect(urlTarget("https://Root.Acme.Internal/graphql", ["u"], "x")).toMatchObject({
      host: "root.acme.internal",
      port: 443,
    });
    expect(urlTarget("http://[::1]/graphql", ["u"], "x")).toMatchObject({ host: "::1", port: 80 });
    expect(urlTarget("http://10.0.0.1:4000/graphql", ["u"], "x")).toMatchObject({
      host: "10.0.0.1",
      port: 4000,
    });
  });
});

describe("REGISTRY_CONNECT_ALLOW: configuration", () => {
  it("is no restriction when unset or empty", () => {
    expect(loadConfig({}, "/srv").connectAllow).toBeUndefined();
    expect(loadConfig({ REGISTRY_CONNECT_ALLOW: " " }, "/srv").connectAllow).toBeUndefined();
    expect(loadConfig({ REGISTRY_CONNECT_ALLOW: "none" }, "/srv").connectAllow?.entries).toEqual([]);
  });

  it("is said at start: what is allowed, or in production that anything is", () => {
    const lines: string[] = [];
    const logger = {
      info: (object: object, message: string) => lines.push(`info ${JSON.stringify(object)} ${message}`),
      warn: (message: string) => lines.push(`warn ${message}`),
    };
    logConnectAllow(parseConnectAllow("*.acme.internal:9092, 10.0.0.0/8").list, true, logger);
    logConnectAllow(undefined, true, logger);
    logConnectAllow(undefined, false, logger);
    expect(lines).toEqual([
      'info {"connectAllow":"*.acme.internal:9092,10.0.0.0/8"} callers may make this registry connect only where REGISTRY_CONNECT_ALLOW allows',
      "warn REGISTRY_CONNECT_ALLOW is not set: an admin may make this registry connect to any host and port (docs/security.md)",
    ]);
  });

  it("refuses a bad entry at start, naming the variable and the entry", () => {
    expect(() =>
      loadConfig({ REGISTRY_CONNECT_ALLOW: "kafka.acme.internal:9092,10.0.0.0/33,*.ok.test:x" }, "/srv"),
    ).toThrow(
      "invalid configuration:\n" +
        `  REGISTRY_CONNECT_ALLOW: entry 2 ("10.0.0.0/33") has prefix length "33": an IPv4 network's is 0 to 32\n` +
        `  REGISTRY_CONNECT_ALLOW: entry 3 ("*.ok.test:x") has port "x": expected a port from 1 to 65535, or a range "from-to" such as "9092-9094"`,
    );
  });
});

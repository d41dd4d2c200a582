import { describe, expect, it } from "vitest";
import { formatHostPort, parseConnectAllow, type ConnectAllowList } from "../src/connect-allow.ts";

function listOf(value: string): ConnectAllowList {
  const { list, errors } = parseConnectAllow(value);
  expect(errors).toEqual([]);
  return list;
}

describe("REGISTRY_CONNECT_ALLOW: host names", () => {
  const list = listOf("kafka1.acme.internal, *.aws.acme.internal:9092-9094,Registry.Acme.Internal.:443");

  it("allows an exact name at any port, case and a final dot aside", () => {
    expect(list.allowsName("kafka1.acme.internal", 9092)).toBe(true);
    expect(list.allowsName("KAFKA1.acme.internal.", 1)).toBe(true);
    expect(list.allowsName("kafka2.acme.internal", 9092)).toBe(false);
    expect(list.allowsName("x.kafka1.acme.internal", 9092)).toBe(false);
    expect(list.allowsName("kafka1.acme.internal.evil.test", 9092)).toBe(false);
  });

  it("allows names below a wildcard, at any depth, not the wildcard's own name", () => {
    expect(list.allowsName("b1.aws.acme.internal", 9092)).toBe(true);
    expect(list.allowsName("b1.us-reg1.aws.acme.internal", 9094)).toBe(true);
    expect(list.allowsName("aws.acme.internal", 9092)).toBe(false);
    expect(list.allowsName("b1.gcp.acme.internal", 9092)).toBe(false);
    expect(list.allowsName("b1.evilaws.acme.internal", 9092)).toBe(false);
  });

  it("holds a name to its ports", () => {
    expect(list.allowsName("b1.aws.acme.internal", 9095)).toBe(false);
    expect(list.allowsName("b1.aws.acme.internal", 9091)).toBe(false);
    expect(list.allowsName("registry.acme.internal", 443)).toBe(true);
    expect(list.allowsName("registry.acme.internal", 5432)).toBe(false);
  });

  it("never allows an IP address by name, nor a name by address", () => {
    const both = listOf("10.0.0.0/8,*.0.0.10,localhost");
    expect(both.allowsName("1.0.0.10", 80)).toBe(false);
    expect(both.allowsName("10.1.2.3", 80)).toBe(false);
    expect(both.allowsAddress("localhost", 80)).toBe(false);
    expect(both.allowsName("localhost", 80)).toBe(true);
  });
});

describe("REGISTRY_CONNECT_ALLOW: addresses and networks", () => {
  const list = listOf(
    "127.0.0.1:4000,10.0.0.0/8,192.168.1.0/24:9092,fd00::/8,[::1]:9092,[2001:db8::/32]:443-444",
  );

  it("allows an IPv4 address only as listed, with its port", () => {
    expect(list.allowsAddress("127.0.0.1", 4000)).toBe(true);
    expect(list.allowsAddress("127.0.0.1", 5432)).toBe(false);
    expect(list.allowsAddress("127.0.0.2", 4000)).toBe(false);
  });

  it("allows IPv4 networks by prefix", () => {
    expect(list.allowsAddress("10.255.1.2", 5432)).toBe(true);
    expect(list.allowsAddress("11.0.0.1", 9092)).toBe(false);
    expect(list.allowsAddress("192.168.1.77", 9092)).toBe(true);
    expect(list.allowsAddress("192.168.1.77", 9093)).toBe(false);
    expect(list.allowsAddress("192.168.2.1", 9092)).toBe(false);
  });

  it("allows IPv6 addresses and networks, bracketed or not", () => {
    expect(list.allowsAddress("fd12:3456::1", 9092)).toBe(true);
    expect(list.allowsAddress("[fd12:3456::1]", 1)).toBe(true);
    expect(list.allowsAddress("fe80::1", 9092)).toBe(false);
    expect(list.allowsAddress("::1", 9092)).toBe(true);
    expect(list.allowsAddress("::1", 9093)).toBe(false);
    expect(list.allowsAddress("2001:db8:1::5", 444)).toBe(true);
    expect(list.allowsAddress("2001:db8:1::5", 445)).toBe(false);
  });

  it("treats an IPv4-mapped IPv6 address as the IPv4 address it maps", () => {
    expect(list.allowsAddress("::ffff:10.1.2.3", 80)).toBe(true);
    expect(list.allowsAddress("::ffff:127.0.0.1", 5432)).toBe(false);
    expect(list.allowsAddress("::ffff:11.1.2.3", 80)).toBe(false);
  });

  it("is not fooled by names: an address check of a name is false", () => {
    expect(list.allowsAddress("10.example.test", 80)).toBe(false);
    expect(list.hasNetworks).toBe(true);
    expect(listOf("*.acme.internal").hasNetworks).toBe(false);
  });
});

describe("REGISTRY_CONNECT_ALLOW: special values and display", () => {
  it("none allows nothing", () => {
    const none = listOf(" None ");
    expect(none.entries).toEqual([]);
    expect(none.allowsName("localhost", 80)).toBe(false);
    expect(none.allowsAddress("127.0.0.1", 80)).toBe(false);
    expect(none.toString()).toBe("none");
  });

  it("shows the entries as written, and addresses as host:port", () => {
    expect(listOf("a.test:1, 10.0.0.0/8").toString()).toBe("a.test:1,10.0.0.0/8");
    expect(formatHostPort("[FD00::1]", 9092)).toBe("[fd00::1]:9092");
    expect(formatHostPort("fd00::1", 9092)).toBe("[fd00::1]:9092");
    expect(formatHostPort("Kafka.Test", 9092)).toBe("kafka.test:9092");
  });
});

describe("REGISTRY_CONNECT_ALLOW: bad entries", () => {
  const errorsOf = (value: string) => parseConnectAllow(value).errors;

  it.each([
    ["10.0.0.0/33", 'entry 1 ("10.0.0.0/33") has prefix length "33": an IPv4 network\'s is 0 to 32'],
    ["fd00::/129", 'entry 1 ("fd00::/129") has prefix length "129": an IPv6 network\'s is 0 to 128'],
    ["10.0.0.0/", 'entry 1 ("10.0.0.0/") has prefix length "": an IPv4 network\'s is 0 to 32'],
    ["10.0.0/8", 'entry 1 ("10.0.0/8") is not a network: expected an address, "/" and a prefix length'],
    ["kafka:0", 'entry 1 ("kafka:0") has port "0": expected a port from 1 to 65535'],
    ["kafka:65536", 'entry 1 ("kafka:65536") has port "65536"'],
    ["kafka:9094-9092", 'entry 1 ("kafka:9094-9092") has port "9094-9092"'],
    ["kafka:", 'entry 1 ("kafka:") has port ""'],
    ["kafka:http", 'entry 1 ("kafka:http") has port "http"'],
    ["*", 'entry 1 ("*") allows every host: leave REGISTRY_CONNECT_ALLOW unset for no restriction'],
    [
      "kafka*.acme.internal",
      'entry 1 ("kafka*.acme.internal") has "*" elsewhere than as its whole first label',
    ],
    ["*.*.acme.internal", 'entry 1 ("*.*.acme.internal") is not a host name, an address or a network'],
    ["http://kafka:9092", 'entry 1 ("http://kafka:9092") is a URL: give its host and port'],
    ["-kafka.test", 'entry 1 ("-kafka.test") is not a host name, an address or a network'],
    ["[fd00::1", 'entry 1 ("[fd00::1") has "[" without "]"'],
    ["[10.0.0.1]:80", 'entry 1 ("[10.0.0.1]:80") holds no IPv6 address in brackets'],
    ["[fd00::1]9092", 'entry 1 ("[fd00::1]9092") has "9092" after "]"'],
  ])("refuses %j", (value, message) => {
    const errors = errorsOf(value);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it("reports every bad entry, numbered, and an empty one", () => {
    expect(errorsOf("a.test,,10.0.0.0/40, b.test:99999")).toEqual([
      'entry 2 ("") is empty: remove the extra comma',
      'entry 3 ("10.0.0.0/40") has prefix length "40": an IPv4 network\'s is 0 to 32',
      'entry 4 ("b.test:99999") has port "99999": expected a port from 1 to 65535, or a range "from-to" such as "9092-9094"',
    ]);
  });
});

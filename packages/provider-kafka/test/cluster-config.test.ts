import { readFileSync } from "node:fs";
import { isSecretKey } from "@stream-registry/core";
import { describe, expect, it } from "vitest";
import { clusterKeys, kafkaClientConfig, kafkaConfigMap, parseClusterConfig } from "../src/index.ts";

// Self-signed test material made with: openssl req -x509 -newkey rsa:2048 -nodes ...; the encrypted
// key with: openssl pkcs8 -topk8 -passout pass:s3cret -v2 aes-256-cbc.
const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8");
const cert = fixture("client-cert.pem");
const key = fixture("client-key.pem");
const encryptedKey = fixture("client-key-encrypted.pem");

const validate = (map: Record<string, string | number | boolean>) => kafkaConfigMap.validate(map, "cluster");

describe("cluster apache.kafka config", () => {
  it("accepts bootstrap servers alone and defaults the rest", () => {
    const { settings, issues } = parseClusterConfig({
      "bootstrap.servers": "kafka-1:9092, 10.0.0.2:9093,[::1]:9094",
    });
    expect(issues).toEqual([]);
    expect(settings).toEqual({
      brokers: ["kafka-1:9092", "10.0.0.2:9093", "[::1]:9094"],
      securityProtocol: "PLAINTEXT",
      clientId: "stream-registry",
      connectionTimeoutMs: 3000,
      requestTimeoutMs: 5000,
      operationTimeoutMs: 8000,
    });
  });

  it("requires bootstrap.servers and names the bad entry", () => {
    expect(validate({})).toEqual([
      { field: ["bootstrap.servers"], message: expect.stringContaining('"bootstrap.servers" is required') },
    ]);
    const [issue] = validate({ "bootstrap.servers": "a:9092,b" });
    expect(issue?.field).toEqual(["bootstrap.servers"]);
    expect(issue?.message).toContain('entry 2 ("b") is not host:port');
    expect(validate({ "bootstrap.servers": "a:70000" })[0]?.message).toContain("port from 1 to 65535");
  });

  it("refuses an unknown key, naming it and listing the known ones", () => {
    const [issue] = validate({ "bootstrap.servers": "a:9092", "bootstrap.server": "a:9092" });
    expect(issue?.field).toEqual(["bootstrap.server"]);
    expect(issue?.message).toContain('unknown key "bootstrap.server"');
    for (const known of Object.keys(clusterKeys)) expect(issue?.message).toContain(known);
  });

  it("checks types and ranges of the timeouts and enums", () => {
    const issues = validate({
      "bootstrap.servers": "a:9092",
      "request.timeout.ms": 10,
      "default.api.timeout.ms": "soon",
      "security.protocol": "plaintext",
    });
    expect(issues.map((issue) => issue.message)).toEqual([
      '"request.timeout.ms" must be at least 100, got 10',
      '"default.api.timeout.ms" must be an integer, got "soon"',
      '"security.protocol" must be one of "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL", got "plaintext"',
    ]);
  });

  it("requires the SASL keys with a SASL protocol and refuses them without one", () => {
    expect(
      validate({ "bootstrap.servers": "a:9092", "security.protocol": "SASL_SSL" }).map((i) => i.field),
    ).toEqual([["sasl.mechanism"], ["sasl.username"], ["sasl.password"]]);
    const [issue] = validate({ "bootstrap.servers": "a:9092", "sasl.username": "bob" });
    expect(issue?.message).toBe(
      '"sasl.username" needs security.protocol SASL_PLAINTEXT or SASL_SSL, not PLAINTEXT',
    );
    expect(validate({ "bootstrap.servers": "a:9092", "ssl.truststore.certificates": cert })[0]?.message).toBe(
      '"ssl.truststore.certificates" needs security.protocol SSL or SASL_SSL, not PLAINTEXT',
    );
  });

  it("reads the PEMs: a broken certificate, a key without its certificate, a wrong passphrase", () => {
    const ssl = { "bootstrap.servers": "a:9093", "security.protocol": "SSL" };
    expect(validate({ ...ssl, "ssl.truststore.certificates": "not a pem" })[0]?.message).toContain(
      "must hold PEM certificates",
    );
    expect(validate({ ...ssl, "ssl.keystore.key": key })).toEqual([
      {
        field: ["ssl.keystore.certificate.chain"],
        message:
          '"ssl.keystore.certificate.chain" is required with "ssl.keystore.key" (mutual TLS needs both)',
      },
    ]);
    const wrong = validate({
      ...ssl,
      "ssl.keystore.certificate.chain": cert,
      "ssl.keystore.key": encryptedKey,
      "ssl.key.password": "wrong",
    });
    expect(wrong.map((issue) => issue.field)).toEqual([["ssl.keystore.key"]]);
    expect(wrong[0]?.message).toContain("cannot be read with ssl.key.password");
  });

  it("turns SASL_SSL with mutual TLS into kafkajs ssl and sasl options", () => {
    const { settings, issues } = parseClusterConfig({
      "bootstrap.servers": "kafka:9093",
      "security.protocol": "SASL_SSL",
      "sasl.mechanism": "SCRAM-SHA-512",
      "sasl.username": "registry",
      "sasl.password": "p4ss",
      "ssl.truststore.certificates": cert,
      "ssl.keystore.certificate.chain": cert,
      "ssl.keystore.key": encryptedKey,
      "ssl.key.password": "s3cret",
      "ssl.endpoint.identification.algorithm": "",
      "client.id": "registry-1",
      "socket.connection.setup.timeout.ms": 1500,
      "request.timeout.ms": "2500",
    });
    expect(issues).toEqual([]);
    const config = kafkaClientConfig(settings!);
    expect(config).toMatchObject({
      clientId: "registry-1",
      brokers: ["kafka:9093"],
      connectionTimeout: 1500,
      requestTimeout: 2500,
      sasl: { mechanism: "scram-sha-512", username: "registry", password: "p4ss" },
      ssl: { ca: [cert], cert, key: encryptedKey, passphrase: "s3cret" },
    });
    const ssl = config.ssl as { checkServerIdentity?: () => undefined };
    expect(ssl.checkServerIdentity?.()).toBeUndefined();
  });

  it("uses plain TLS (ssl: true) with Node's CAs when no PEM is given, and PLAIN SASL without TLS", () => {
    const tls = parseClusterConfig({ "bootstrap.servers": "a:9093", "security.protocol": "SSL" }).settings!;
    expect(kafkaClientConfig(tls)).toMatchObject({ ssl: true });
    const sasl = parseClusterConfig({
      "bootstrap.servers": "a:9092",
      "security.protocol": "SASL_PLAINTEXT",
      "sasl.mechanism": "PLAIN",
      "sasl.username": "u",
      "sasl.password": "p",
    }).settings!;
    const config = kafkaClientConfig(sasl);
    expect(config.sasl).toEqual({ mechanism: "plain", username: "u", password: "p" });
    expect(config.ssl).toBeUndefined();
  });

  it("has its secret keys covered by core's isSecretKey, and only those", () => {
    const secret = Object.keys(clusterKeys).filter(isSecretKey);
    expect(secret.sort()).toEqual(["sasl.password", "ssl.key.password", "ssl.keystore.key"]);
  });
});

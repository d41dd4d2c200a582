import { createPrivateKey, X509Certificate } from "node:crypto";
import type { ConfigMap } from "@stream-registry/core";
import type { ConfigIssue } from "@stream-registry/provider-api";
import { integer, oneOf, parseKeys, text } from "./key-spec.ts";

export const SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] as const;
export const SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const;

export type SecurityProtocol = (typeof SECURITY_PROTOCOLS)[number];
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/;

/** Parses "host:9092,host2:9092" into its servers, or says which entry is wrong. */
export function parseBootstrapServers(value: string): string[] | string {
  const servers = value.split(",").map((entry) => entry.trim());
  for (const [index, server] of servers.entries()) {
    const match = HOST_PORT.exec(server);
    const port = match ? Number(match[3]) : 0;
    if (!match || port < 1 || port > 65535) {
      return (
        `entry ${index + 1} (${JSON.stringify(server)}) is not host:port with a port from 1 to 65535; ` +
        `expected e.g. "broker1:9092,broker2:9092"`
      );
    }
  }
  return servers;
}

function checkCertificates(pem: string): string | undefined {
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    return "must hold PEM certificates (-----BEGIN CERTIFICATE-----)";
  }
  try {
    new X509Certificate(pem);
    return undefined;
  } catch (error) {
    return `is not a readable PEM certificate: ${(error as Error).message}`;
  }
}

function checkPrivateKeyPem(pem: string): string | undefined {
  return /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)
    ? undefined
    : "must hold a PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN ENCRYPTED PRIVATE KEY-----)";
}

/** The cluster "apache.kafka" keys: how the registry connects to the cluster. Names follow Kafka's client configs. */
export const clusterKeys = {
  "bootstrap.servers": text({
    description: "Comma-separated host:port list of brokers to bootstrap from (required).",
    type: "host:port[,host:port...]",
    check: (value) => {
      const servers = parseBootstrapServers(value);
      return typeof servers === "string" ? servers : undefined;
    },
  }),
  "security.protocol": oneOf(SECURITY_PROTOCOLS, {
    description: "How to talk to the brokers: TLS and/or SASL authentication.",
    default: "PLAINTEXT",
  }),
  "sasl.mechanism": oneOf(SASL_MECHANISMS, {
    description: "SASL mechanism; required with SASL_PLAINTEXT and SASL_SSL.",
  }),
  "sasl.username": text({ description: "SASL user; required with SASL_PLAINTEXT and SASL_SSL." }),
  "sasl.password": text({ description: "SASL password (secret: stored, never shown)." }),
  "ssl.truststore.certificates": text({
    description: "PEM CA certificate(s) to trust; default: Node's built-in CAs.",
    type: "PEM certificates",
    check: checkCertificates,
  }),
  "ssl.keystore.certificate.chain": text({
    description: "PEM client certificate chain for mutual TLS; needs ssl.keystore.key.",
    type: "PEM certificates",
    check: checkCertificates,
  }),
  "ssl.keystore.key": text({
    description: "PEM private key of the client certificate (secret: stored, never shown).",
    type: "PEM private key",
    check: checkPrivateKeyPem,
  }),
  "ssl.key.password": text({ description: "Passphrase of an encrypted ssl.keystore.key (secret)." }),
  "ssl.endpoint.identification.algorithm": oneOf(["https", ""], {
    description: 'Whether the broker certificate\'s host name is verified ("https") or not ("").',
    default: '"https"',
  }),
  "client.id": text({
    description: "Client id the brokers see in logs and quotas.",
    default: '"stream-registry"',
    check: (value) =>
      /^[A-Za-z0-9._-]+$/.test(value) ? undefined : 'may hold only letters, digits, ".", "_", "-"',
  }),
  "socket.connection.setup.timeout.ms": integer({
    description: "How long to wait for a broker's TCP/TLS/SASL connection.",
    min: 100,
    max: 300_000,
    default: "3000",
  }),
  "request.timeout.ms": integer({
    description: "How long to wait for one broker request.",
    min: 100,
    max: 300_000,
    default: "5000",
  }),
  "default.api.timeout.ms": integer({
    description:
      "Deadline of one provider call (connect + requests + kafkajs retries); after it the call fails retriably.",
    min: 100,
    max: 600_000,
    default: "8000",
  }),
};

/** What the provider needs to connect to one cluster, parsed from its "apache.kafka" map. */
export interface ClusterSettings {
  brokers: string[];
  securityProtocol: SecurityProtocol;
  sasl?: { mechanism: SaslMechanism; username: string; password: string };
  tls?: { ca?: string; cert?: string; key?: string; keyPassword?: string; verifyHostname: boolean };
  clientId: string;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  operationTimeoutMs: number;
}

const SASL_KEYS = ["sasl.mechanism", "sasl.username", "sasl.password"] as const;
const TLS_KEYS = [
  "ssl.truststore.certificates",
  "ssl.keystore.certificate.chain",
  "ssl.keystore.key",
  "ssl.key.password",
  "ssl.endpoint.identification.algorithm",
] as const;

/** Parses and cross-checks a cluster's "apache.kafka" map; settings are present only when it has no issue. */
export function parseClusterConfig(map: ConfigMap): { settings?: ClusterSettings; issues: ConfigIssue[] } {
  const { values, issues } = parseKeys(map, clusterKeys, 'the cluster\'s "apache.kafka" config map');
  const bootstrap = values["bootstrap.servers"];
  if (map["bootstrap.servers"] === undefined) {
    issues.push({
      field: ["bootstrap.servers"],
      message: '"bootstrap.servers" is required, e.g. "broker1:9092,broker2:9092"',
    });
  }
  const protocol = values["security.protocol"] ?? "PLAINTEXT";
  const usesSasl = protocol.startsWith("SASL_");
  const usesTls = protocol.endsWith("SSL");
  for (const key of SASL_KEYS) {
    if (usesSasl && map[key] === undefined) {
      issues.push({
        field: [key],
        message: `${JSON.stringify(key)} is required with security.protocol ${protocol}`,
      });
    }
    if (!usesSasl && map[key] !== undefined) {
      issues.push({
        field: [key],
        message: `${JSON.stringify(key)} needs security.protocol SASL_PLAINTEXT or SASL_SSL, not ${protocol}`,
      });
    }
  }
  for (const key of TLS_KEYS) {
    if (!usesTls && map[key] !== undefined) {
      issues.push({
        field: [key],
        message: `${JSON.stringify(key)} needs security.protocol SSL or SASL_SSL, not ${protocol}`,
      });
    }
  }
  const cert = values["ssl.keystore.certificate.chain"];
  const key = values["ssl.keystore.key"];
  const keyPassword = values["ssl.key.password"];
  if ((cert === undefined) !== (key === undefined) && usesTls) {
    const [given, missing] =
      cert === undefined
        ? ["ssl.keystore.key", "ssl.keystore.certificate.chain"]
        : ["ssl.keystore.certificate.chain", "ssl.keystore.key"];
    issues.push({
      field: [missing],
      message: `"${missing}" is required with "${given}" (mutual TLS needs both)`,
    });
  }
  if (keyPassword !== undefined && key === undefined && usesTls) {
    issues.push({ field: ["ssl.key.password"], message: '"ssl.key.password" needs "ssl.keystore.key"' });
  }
  if (key !== undefined) {
    try {
      createPrivateKey({ key, passphrase: keyPassword });
    } catch (error) {
      issues.push({
        field: ["ssl.keystore.key"],
        message: `"ssl.keystore.key" cannot be read${keyPassword === undefined ? "" : " with ssl.key.password"}: ${(error as Error).message}`,
      });
    }
  }
  if (issues.length > 0 || bootstrap === undefined) return { issues };
  const brokers = parseBootstrapServers(bootstrap) as string[];
  const settings: ClusterSettings = {
    brokers,
    securityProtocol: protocol,
    clientId: values["client.id"] ?? "stream-registry",
    connectionTimeoutMs: values["socket.connection.setup.timeout.ms"] ?? 3000,
    requestTimeoutMs: values["request.timeout.ms"] ?? 5000,
    operationTimeoutMs: values["default.api.timeout.ms"] ?? 8000,
  };
  if (usesSasl) {
    settings.sasl = {
      mechanism: values["sasl.mechanism"] as SaslMechanism,
      username: values["sasl.username"] as string,
      password: values["sasl.password"] as string,
    };
  }
  if (usesTls) {
    settings.tls = {
      ca: values["ssl.truststore.certificates"],
      cert,
      key,
      keyPassword,
      verifyHostname: values["ssl.endpoint.identification.algorithm"] !== "",
    };
  }
  return { settings, issues };
}

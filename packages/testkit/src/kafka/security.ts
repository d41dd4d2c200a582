import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import type { KafkaConfig } from "kafkajs";

const run = promisify(execFile);

/** How the client listener is secured; the controller listener stays PLAINTEXT. */
export type KafkaSecurityProtocol = "SASL_PLAINTEXT" | "SSL" | "SASL_SSL";

/** What a client needs to connect to a secured test cluster (kept in cluster.json for restarts). */
export interface KafkaClusterSecurity {
  protocol: KafkaSecurityProtocol;
  /** SASL_*: the one user, accepted with PLAIN and SCRAM-SHA-256 alike. */
  username?: string;
  password?: string;
  /** SSL / SASL_SSL: PEM of the throwaway CA that signed the broker's certificate (SAN 127.0.0.1, localhost). */
  caPem?: string;
}

export const SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256"] as const;

const usesSasl = (protocol: KafkaSecurityProtocol) => protocol.startsWith("SASL_");
const usesTls = (protocol: KafkaSecurityProtocol) => protocol.endsWith("SSL");

async function openssl(cwd: string, args: string[]): Promise<void> {
  try {
    await run("openssl", args, { cwd });
  } catch (error) {
    const { stderr = "", code } = error as { stderr?: string; code?: unknown };
    const why = code === "ENOENT" ? "openssl is not on PATH" : stderr.trim();
    throw new Error(`openssl ${args[0]} failed (needed for a TLS test cluster): ${why}`, { cause: error });
  }
}

/**
 * A new CA and a broker certificate it signed, valid for 127.0.0.1 and localhost, as PEM files in
 * `tlsDir`: ca.pem (the truststore) and broker.pem (key and certificate, Kafka's PEM keystore).
 */
async function makeCertificates(tlsDir: string): Promise<string> {
  await mkdir(tlsDir, { recursive: true });
  const rsa = ["-newkey", "rsa:2048", "-nodes"];
  await openssl(tlsDir, [
    ...["req", "-x509", ...rsa, "-keyout", "ca.key", "-out", "ca.pem", "-days", "30"],
    ...["-subj", "/CN=stream-registry testkit CA", "-addext", "basicConstraints=critical,CA:TRUE"],
    ...["-addext", "keyUsage=critical,keyCertSign,cRLSign"],
  ]);
  await openssl(tlsDir, [
    "req",
    ...rsa,
    "-keyout",
    "broker.key",
    "-out",
    "broker.csr",
    "-subj",
    "/CN=localhost",
  ]);
  await writeFile(join(tlsDir, "san.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  await openssl(tlsDir, [
    ...["x509", "-req", "-in", "broker.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-days", "30"],
    ...["-set_serial", `0x${randomBytes(8).toString("hex")}`, "-extfile", "san.cnf", "-out", "broker.crt"],
  ]);
  const [key, cert] = await Promise.all(
    ["broker.key", "broker.crt"].map((file) => readFile(join(tlsDir, file), "utf8")),
  );
  await writeFile(join(tlsDir, "broker.pem"), `${key}${cert}`);
  return readFile(join(tlsDir, "ca.pem"), "utf8");
}

/** A new user (SASL) and certificates (TLS) for a cluster in `dir`. */
export async function createSecurity(
  protocol: KafkaSecurityProtocol,
  dir: string,
): Promise<KafkaClusterSecurity> {
  const security: KafkaClusterSecurity = { protocol };
  if (usesSasl(protocol)) {
    security.username = "testkit";
    security.password = randomBytes(12).toString("hex");
  }
  if (usesTls(protocol)) security.caPem = await makeCertificates(join(dir, "tls"));
  return security;
}

/** Broker settings of the secured client listener, which is also the inter-broker one. */
export function securityProperties(security: KafkaClusterSecurity, dir: string): Record<string, string> {
  const listener = security.protocol.toLowerCase();
  const settings: Record<string, string> = {};
  if (usesSasl(security.protocol)) {
    const { username, password } = security;
    settings["sasl.enabled.mechanisms"] = SASL_MECHANISMS.join(",");
    settings["sasl.mechanism.inter.broker.protocol"] = "PLAIN";
    // username/password: what the broker itself logs in with; user_<name>: who PLAIN accepts.
    settings[`listener.name.${listener}.plain.sasl.jaas.config`] =
      `org.apache.kafka.common.security.plain.PlainLoginModule required username="${username}" password="${password}" user_${username}="${password}";`;
    // SCRAM users live in the cluster metadata (kafka-storage format --add-scram).
    settings[`listener.name.${listener}.scram-sha-256.sasl.jaas.config`] =
      "org.apache.kafka.common.security.scram.ScramLoginModule required;";
  }
  if (usesTls(security.protocol)) {
    settings["ssl.keystore.type"] = "PEM";
    settings["ssl.keystore.location"] = join(dir, "tls", "broker.pem");
    settings["ssl.truststore.type"] = "PEM";
    settings["ssl.truststore.location"] = join(dir, "tls", "ca.pem");
  }
  return settings;
}

/** Extra `kafka-storage format` arguments: the SCRAM credentials of the SASL user. */
export function formatArguments(security: KafkaClusterSecurity | undefined): string[] {
  if (!security?.username) return [];
  return ["--add-scram", `SCRAM-SHA-256=[name=${security.username},password=${security.password}]`];
}

/** The kafkajs `ssl`/`sasl` options for the cluster (SASL with PLAIN); empty for PLAINTEXT. */
export function kafkajsSecurity(security: KafkaClusterSecurity | undefined): Partial<KafkaConfig> {
  if (!security) return {};
  const config: Partial<KafkaConfig> = {};
  if (security.caPem !== undefined) config.ssl = { ca: [security.caPem] };
  if (security.username !== undefined && security.password !== undefined) {
    config.sasl = { mechanism: "plain", username: security.username, password: security.password };
  }
  return config;
}

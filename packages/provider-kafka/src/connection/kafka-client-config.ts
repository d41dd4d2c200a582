import type { ConnectionOptions } from "node:tls";
import type { KafkaConfig, SASLOptions } from "kafkajs";
import type { ClusterSettings } from "../config/cluster-config.ts";

/**
 * kafkajs retries inside each admin call; a few quick tries ride out a controller move, while the
 * call's own deadline and the registry's reconciler handle longer outages.
 */
export const ADMIN_RETRY = { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 } as const;

/** The kafkajs client options for a cluster: brokers, TLS, SASL and timeouts. */
export function kafkaClientConfig(settings: ClusterSettings): KafkaConfig {
  return {
    clientId: settings.clientId,
    brokers: settings.brokers,
    connectionTimeout: settings.connectionTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    retry: { ...ADMIN_RETRY },
    ...(settings.tls ? { ssl: tlsOptions(settings.tls) } : {}),
    ...(settings.sasl ? { sasl: saslOptions(settings.sasl) } : {}),
  };
}

function tlsOptions(tls: NonNullable<ClusterSettings["tls"]>): ConnectionOptions | true {
  const options: ConnectionOptions = {};
  if (tls.ca !== undefined) options.ca = [tls.ca];
  if (tls.cert !== undefined) options.cert = tls.cert;
  if (tls.key !== undefined) options.key = tls.key;
  if (tls.keyPassword !== undefined) options.passphrase = tls.keyPassword;
  // Kafka's ssl.endpoint.identification.algorithm="" keeps the chain check but skips the host name.
  if (!tls.verifyHostname) options.checkServerIdentity = () => undefined;
  return Object.keys(options).length === 0 ? true : options;
}

function saslOptions(sasl: NonNullable<ClusterSettings["sasl"]>): SASLOptions {
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case "PLAIN":
      return { mechanism: "plain", username, password };
    case "SCRAM-SHA-256":
      return { mechanism: "scram-sha-256", username, password };
    case "SCRAM-SHA-512":
      return { mechanism: "scram-sha-512", username, password };
  }
}

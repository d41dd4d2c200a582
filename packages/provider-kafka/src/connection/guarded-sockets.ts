import { isIP, Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { formatHostPort, normalizeHost } from "@stream-registry/core";
import {
  ConnectNotAllowedError,
  isProviderError,
  type ConfigIssue,
  type ConnectPolicy,
} from "@stream-registry/provider-api";
import type { ISocketFactory } from "kafkajs";
import { splitServer } from "../config/cluster-endpoints.ts";
import { KAFKA_MAP } from "../config/config-maps.ts";
import { rootKafkaError } from "../errors/kafka-errors.ts";

/** The `code` of a connection refused by the registry's ConnectPolicy (see isConnectRefusal). */
export const CONNECT_NOT_ALLOWED = "ECONNECTNOTALLOWED";

/** kafkajs' keep-alive on broker sockets (its default socket factory's). */
const KEEP_ALIVE_MS = 60_000;

/** Why a broker the cluster advertises is not connected to: the message users read. */
export function advertisedBrokerRefusal(host: string, port: number): string {
  return (
    `the cluster advertises broker ${formatHostPort(host, port)}, which is not in REGISTRY_CONNECT_ALLOW: ` +
    `this registry connects only to the hosts and networks its operator allows`
  );
}

/** "host:port" as the allow-list compares it, for the cluster's own bootstrap servers. */
const endpointKey = (host: string, port: number) => `${normalizeHost(host)}:${port}`;

/** Whether a client of a cluster may connect to a broker: one of its bootstrap servers, or allowed. */
export type BrokerCheck = (host: string, port: number) => Promise<boolean>;

/**
 * The check of a cluster's brokers: its own bootstrap servers (`bootstrap`, "host:port"; checked
 * when the cluster was declared, or the operator's) pass at once, any other address only if
 * `policy` allows it.
 */
export function brokerCheck(policy: ConnectPolicy, bootstrap: readonly string[]): BrokerCheck {
  const own = new Set(bootstrap.map(splitServer).map(({ host, port }) => endpointKey(host, port)));
  return (host, port) =>
    own.has(endpointKey(host, port)) ? Promise.resolve(true) : policy.allows(host, port);
}

/** The brokers of `brokers` (a cluster's metadata) that `check` refuses, as issues of the config. */
export async function advertisedRefusals(
  check: BrokerCheck,
  brokers: readonly { host: string; port: number }[],
): Promise<ConfigIssue[]> {
  const allowed = await Promise.all(brokers.map(({ host, port }) => check(host, port)));
  return brokers
    .filter((_, index) => !allowed[index])
    .map(({ host, port }) => ({
      field: [KAFKA_MAP, "bootstrap.servers"],
      message: advertisedBrokerRefusal(host, port),
    }));
}

/**
 * A kafkajs socket factory that connects only where `check` allows, so that a cluster cannot send
 * the registry to an address outside its allow-list by advertising it. The socket connects once
 * the check passed; refused, it fails with CONNECT_NOT_ALLOWED before any connection was opened.
 */
export function guardedSocketFactory(check: BrokerCheck): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    const raw = new Socket();
    // TLS over a socket connected later: the handshake starts once it connects.
    const socket = ssl
      ? tlsConnect({ socket: raw, ...(isIP(host) === 0 ? { servername: host } : {}), ...ssl }, onConnect)
      : raw;
    if (!ssl) raw.once("connect", onConnect);
    socket.setKeepAlive(true, KEEP_ALIVE_MS);
    check(host, port).then(
      (ok) => {
        if (socket.destroyed) return;
        if (ok) raw.connect({ host, port });
        else
          socket.destroy(
            Object.assign(new Error(advertisedBrokerRefusal(host, port)), { code: CONNECT_NOT_ALLOWED }),
          );
      },
      (error: unknown) => socket.destroy(error as Error),
    );
    return socket;
  };
}

/**
 * The connection refusal inside a failed client call (`error`, or the cause of the provider error
 * it was mapped to) as the ConnectNotAllowedError it is; undefined when it is something else.
 */
export function connectRefusalOf(error: unknown): ConnectNotAllowedError | undefined {
  const root = rootKafkaError(isProviderError(error) ? error.cause : error) as {
    code?: unknown;
    broker?: unknown;
  };
  if (root?.code !== CONNECT_NOT_ALLOWED || typeof root.broker !== "string") return undefined;
  const { host, port } = splitServer(root.broker);
  const message = advertisedBrokerRefusal(host, port);
  return new ConnectNotAllowedError(message, [{ field: [KAFKA_MAP, "bootstrap.servers"], message }]);
}

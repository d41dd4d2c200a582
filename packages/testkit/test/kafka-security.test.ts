import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { KafkaConfig } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kafkaClient, startKafkaCluster } from "../src/index.ts";
import type { KafkaCluster } from "../src/index.ts";
import { dumpKafkaLogsOnFailure } from "../src/kafka/vitest.ts";

/** The topics a client with `config` sees; no retries, so a refusal fails at once. */
async function listTopics(bootstrapServers: string, config: Partial<KafkaConfig>): Promise<string[]> {
  const admin = kafkaClient(bootstrapServers, { ...config, retry: { retries: 0 } }).admin();
  await admin.connect();
  try {
    return await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

let sasl: KafkaCluster;
let ssl: KafkaCluster;
beforeAll(async () => {
  [sasl, ssl] = await Promise.all([
    startKafkaCluster({ name: "sasl", security: "SASL_PLAINTEXT" }),
    startKafkaCluster({ name: "ssl", security: "SSL" }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([sasl, ssl].filter(Boolean).map((cluster) => cluster[Symbol.asyncDispose]()));
}, 60_000);
dumpKafkaLogsOnFailure(() => [sasl, ssl].filter(Boolean));

describe("a SASL_PLAINTEXT cluster", () => {
  it("takes its user with PLAIN and SCRAM-SHA-256, and nothing else", async () => {
    const { username, password, caPem } = sasl.security ?? {};
    expect(sasl.security?.protocol).toBe("SASL_PLAINTEXT");
    expect(username).toBe("testkit");
    expect(password).toMatch(/^[0-9a-f]{24}$/);
    expect(caPem).toBeUndefined();
    expect(sasl.clientConfig).toEqual({ sasl: { mechanism: "plain", username, password } });

    expect(await listTopics(sasl.bootstrapServers, sasl.clientConfig)).toEqual([]);
    const scram = { sasl: { mechanism: "scram-sha-256", username: `${username}`, password: `${password}` } };
    expect(await listTopics(sasl.bootstrapServers, scram as Partial<KafkaConfig>)).toEqual([]);

    const wrong = { sasl: { mechanism: "plain" as const, username: `${username}`, password: "wrong" } };
    await expect(listTopics(sasl.bootstrapServers, wrong)).rejects.toMatchObject({
      name: "KafkaJSSASLAuthenticationError",
      message: expect.stringContaining("Invalid username or password"),
    });
    await expect(listTopics(sasl.bootstrapServers, {})).rejects.toThrow();
  });

  it("keeps its security across stop() and start()", async () => {
    await sasl.stop();
    await sasl.start();
    expect(await listTopics(sasl.bootstrapServers, sasl.clientConfig)).toEqual([]);
    const state = JSON.parse(readFileSync(join(sasl.dir, "cluster.json"), "utf8")) as {
      security?: unknown;
    };
    expect(state.security).toEqual(sasl.security);
  }, 90_000);
});

describe("an SSL cluster", () => {
  it("serves a certificate for 127.0.0.1 and localhost, signed by the CA it exposes", async () => {
    const { caPem, username } = ssl.security ?? {};
    expect(ssl.security?.protocol).toBe("SSL");
    expect(username).toBeUndefined();
    const ca = new X509Certificate(`${caPem}`);
    expect(ca.ca).toBe(true);
    const broker = new X509Certificate(readFileSync(join(ssl.dir, "tls", "broker.crt")));
    expect(broker.checkIssued(ca) && broker.verify(ca.publicKey)).toBe(true);
    expect(broker.subjectAltName).toBe("IP Address:127.0.0.1, DNS:localhost");

    expect(await listTopics(ssl.bootstrapServers, ssl.clientConfig)).toEqual([]);
    expect(await listTopics(`localhost:${ssl.port}`, ssl.clientConfig)).toEqual([]);
  });

  it("is refused by a client that does not trust its CA", async () => {
    // Node's default CAs only; kafkajs wraps the connection error in its retry error.
    const error = await listTopics(ssl.bootstrapServers, { ssl: true }).catch((e: unknown) => e);
    expect((error as { cause?: unknown }).cause).toMatchObject({
      name: "KafkaJSConnectionError",
      code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    });
  });
});

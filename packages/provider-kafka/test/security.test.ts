import { readFileSync } from "node:fs";
import type { ConfigMap } from "@stream-registry/core";
import { kafkaClient } from "@stream-registry/testkit";
import { usePrivateKafkaClusters } from "@stream-registry/testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";
import {
  providerFailure,
  bindingRequest,
  clusterTarget,
  context,
  countingProvider,
  eventually,
  topicName,
} from "./support/kafka-targets.ts";

/** One broker whose only client listener is SASL_SSL: TLS with the testkit's CA, then PLAIN or SCRAM-SHA-256. */
const kafka = usePrivateKafkaClusters(1, { security: "SASL_SSL" });
const { provider, counts } = countingProvider();
const infra = provider.infrastructure;
afterAll(() => provider.close());

/** A self-signed certificate that did not sign the broker's: the wrong CA. */
const otherCa = readFileSync(new URL("fixtures/client-cert.pem", import.meta.url), "utf8");

/** The cluster's "apache.kafka" map for SASL_SSL, with `overrides` laid over the right settings. */
function secured(overrides: ConfigMap = {}): ConfigMap {
  const { username, password, caPem } = kafka.at(0).security ?? {};
  if (username === undefined || password === undefined || caPem === undefined) {
    throw new Error("the testkit cluster has no SASL user or CA");
  }
  return {
    "security.protocol": "SASL_SSL",
    "sasl.mechanism": "PLAIN",
    "sasl.username": username,
    "sasl.password": password,
    "ssl.truststore.certificates": caPem,
    "request.timeout.ms": 3000,
    ...overrides,
  };
}

const target = (name: string, overrides: ConfigMap = {}) =>
  clusterTarget(kafka.at(0).bootstrapServers, name, secured(overrides));

describe("a SASL_SSL cluster", () => {
  it("refuses a client without TLS and SASL", async () => {
    const admin = kafkaClient(kafka.at(0).bootstrapServers, { retry: { retries: 0 } }).admin();
    await expect(admin.connect()).rejects.toThrow();
  });

  it("is declared and probed with the right credentials, with PLAIN and SCRAM-SHA-256", async () => {
    const declared = await infra.validateCluster("secure", target("secure").config, context());
    expect(declared).toMatchObject({ brokerCount: 1, details: { clusterId: kafka.at(0).clusterId } });

    const scram = target("secure-scram", { "sasl.mechanism": "SCRAM-SHA-256" });
    const probe = await infra.probeCluster(scram, context());
    expect(probe).toMatchObject({ brokerCount: 1, details: { consecutiveFailures: 0 } });
  });

  it("checks the broker's host name against its certificate (127.0.0.1 and localhost)", async () => {
    const byName = clusterTarget(`localhost:${kafka.at(0).port}`, "by-name", secured());
    expect(await infra.probeCluster(byName, context())).toMatchObject({ brokerCount: 1 });
  });

  it("refuses a wrong password permanently, saying the credentials were rejected", async () => {
    for (const mechanism of ["PLAIN", "SCRAM-SHA-256"]) {
      const wrong = target(`wrong-${mechanism}`, { "sasl.mechanism": mechanism, "sasl.password": "nope" });
      const declared = await providerFailure(infra.validateCluster(wrong.name, wrong.config, context()));
      expect(declared.retriable).toBe(false);
      expect(declared.message).toContain("credentials were rejected");
      expect(declared.message).toContain(mechanism);

      // A client whose login was refused is not reused: each call tries again with a new one.
      const clientsBefore = counts.clients;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const probed = await providerFailure(infra.probeCluster(wrong, context()));
        expect(probed.retriable).toBe(false);
        expect(probed.message).toContain("credentials were rejected");
      }
      expect(counts.clients - clientsBefore).toBe(2);
    }
  });

  it("refuses a mechanism the cluster does not offer, naming it", async () => {
    const other = target("scram-512", { "sasl.mechanism": "SCRAM-SHA-512" });
    const error = await providerFailure(infra.validateCluster(other.name, other.config, context()));
    expect(error.retriable).toBe(false);
    expect(error.message).toContain('the cluster does not offer this "sasl.mechanism"');
    expect(error.message).toContain("UNSUPPORTED_SASL_MECHANISM");
  });

  it("refuses a broker whose certificate the given CA did not sign", async () => {
    const wrongCa = target("wrong-ca", { "ssl.truststore.certificates": otherCa });
    const declared = await providerFailure(infra.validateCluster(wrongCa.name, wrongCa.config, context()));
    expect(declared.retriable).toBe(false);
    expect(declared.message).toContain(
      `(${kafka.at(0).bootstrapServers}) failed: the broker's TLS certificate was refused`,
    );

    const probed = await providerFailure(infra.probeCluster(wrongCa, context()));
    expect(probed.retriable).toBe(false);
    expect(probed.message).toContain('check "ssl.truststore.certificates"');
  });

  it("creates, observes and deletes a binding through the secured listener", async () => {
    const cluster = target("bindings", { "sasl.mechanism": "SCRAM-SHA-256" });
    const name = topicName("secure");
    const request = bindingRequest(name, cluster, { "apache.kafka": { partitions: 2, compacted: true } });
    const created = await infra.createStreamBinding(request, context());
    expect(created.details).toMatchObject({ partitions: 2, configs: { "cleanup.policy": "compact" } });

    const observed = await infra.observeStreamBinding(name, cluster, context());
    expect(observed?.details).toMatchObject({ partitions: 2, replicationFactor: 1 });

    await infra.deleteStreamBinding(name, cluster, context());
    await eventually(async () =>
      expect(await infra.observeStreamBinding(name, cluster, context())).toBeNull(),
    );
  });
});

import { isConnectNotAllowedError, type ConnectPolicy } from "@stream-registry/provider-api";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { describe, expect, it } from "vitest";
import { createKafkaProvider } from "../src/index.ts";
import {
  bindingRequest,
  clusterTarget,
  context,
  providerFailure,
  topicName,
} from "./support/kafka-targets.ts";

/** A policy that allows `allowed` ("host:port") alone, and records every address it was asked about. */
function policyAllowing(...allowed: string[]): ConnectPolicy & { asked: string[] } {
  const asked: string[] = [];
  return {
    restricted: true,
    asked,
    allows(host, port) {
      asked.push(`${host}:${port}`);
      return Promise.resolve(allowed.includes(`${host}:${port}`));
    },
  };
}

/**
 * Issue 19, Must 4: a Kafka cluster reached at an allowed bootstrap address but advertising its
 * broker elsewhere (the shared test brokers advertise 127.0.0.1:<port>; bootstrapped here as
 * localhost:<port>, which the policy allows by name) cannot lead the provider's clients there.
 */
describe("the kafka provider and the brokers a cluster advertises", () => {
  const kafka = useSharedKafkaClusters();
  const port = () => Number(kafka.at(0).bootstrapServers.split(":")[1]);
  const advertised = () => `127.0.0.1:${port()}`;

  it("refuses to validate a cluster advertising a broker the policy does not allow", async () => {
    const provider = createKafkaProvider();
    const policy = policyAllowing();
    provider.registryWillStart({ connect: policy });
    try {
      const failure = await providerFailure(
        provider.infrastructure.validateCluster("c1", clusterTarget(`localhost:${port()}`).config, context()),
      );
      expect(isConnectNotAllowedError(failure)).toBe(true);
      const message = `the cluster advertises broker ${advertised()}, which is not in REGISTRY_CONNECT_ALLOW: this registry connects only to the hosts and networks its operator allows`;
      expect(failure.retriable).toBe(false);
      expect(failure.issues).toEqual([{ field: ["apache.kafka", "bootstrap.servers"], message }]);
      // kafkajs asked for the broker (and retried) before the metadata check: each was refused.
      expect(new Set(policy.asked)).toEqual(new Set([advertised()]));
    } finally {
      await provider.close();
    }
  });

  it("never connects to it: a call that needs that broker fails on the refusal, naming it", async () => {
    const provider = createKafkaProvider();
    const policy = policyAllowing();
    provider.registryWillStart({ connect: policy });
    try {
      // Creating a topic goes to the controller, which the cluster names by its advertised address.
      const cluster = clusterTarget(`localhost:${port()}`);
      const request = bindingRequest(topicName("advertised"), cluster, {
        "apache.kafka": { partitions: 1, replication: 1 },
      });
      const failure = await providerFailure(provider.infrastructure.createStreamBinding(request, context()));
      expect(failure.message).toContain(
        `the cluster advertises broker ${advertised()}, which is not in REGISTRY_CONNECT_ALLOW`,
      );
      expect(policy.asked).toContain(advertised());
    } finally {
      await provider.close();
    }
  });

  it("works as before where the policy allows the advertised broker", async () => {
    const provider = createKafkaProvider();
    const policy = policyAllowing(advertised());
    provider.registryWillStart({ connect: policy });
    try {
      const cluster = clusterTarget(`localhost:${port()}`);
      expect(await provider.infrastructure.validateCluster("c1", cluster.config, context())).toMatchObject({
        brokerCount: 1,
      });
      const request = bindingRequest(topicName("advertised"), cluster, {
        "apache.kafka": { partitions: 1, replication: 1 },
      });
      expect(await provider.infrastructure.createStreamBinding(request, context())).toMatchObject({
        details: { partitions: 1 },
      });
      await provider.infrastructure.deleteStreamBinding(request.streamName, cluster, context());
    } finally {
      await provider.close();
    }
  });
});

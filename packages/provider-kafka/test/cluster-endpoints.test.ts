import { describe, expect, it } from "vitest";
import { createKafkaProvider, kafkaClusterEndpoints } from "../src/index.ts";

describe("the kafka provider's cluster endpoints (what REGISTRY_CONNECT_ALLOW checks)", () => {
  it("are the bootstrap servers, each on its key, IPv6 without brackets", () => {
    const field = ["apache.kafka", "bootstrap.servers"];
    const label = "bootstrap server";
    expect(
      kafkaClusterEndpoints({
        "apache.kafka": { "bootstrap.servers": "b1.acme.internal:9092, 10.0.0.7:9093,[fd00::1]:9094" },
      }),
    ).toEqual([
      { host: "b1.acme.internal", port: 9092, field, label },
      { host: "10.0.0.7", port: 9093, field, label },
      { host: "fd00::1", port: 9094, field, label },
    ]);
  });

  it("include the schema registry and the Kafka Connect worker, each on its url key", () => {
    expect(
      kafkaClusterEndpoints({
        "apache.kafka": { "bootstrap.servers": "b1:9092" },
        "schema.registry": { url: "https://sr.acme" },
        "kafka.connect": { url: "http://connect.acme:8083/" },
      }),
    ).toEqual([
      { host: "b1", port: 9092, field: ["apache.kafka", "bootstrap.servers"], label: "bootstrap server" },
      { host: "sr.acme", port: 443, field: ["schema.registry", "url"], label: "schema registry" },
      { host: "connect.acme", port: 8083, field: ["kafka.connect", "url"], label: "Kafka Connect worker" },
    ]);
  });

  it("are none without a readable bootstrap.servers (validation refuses that config first)", () => {
    expect(kafkaClusterEndpoints({})).toEqual([]);
    expect(kafkaClusterEndpoints({ "apache.kafka": { "bootstrap.servers": "nohost" } })).toEqual([]);
    expect(kafkaClusterEndpoints({ "apache.kafka": { "bootstrap.servers": 9092 } })).toEqual([]);
  });

  it("are what the provider declares", async () => {
    const provider = createKafkaProvider();
    try {
      expect(provider.infrastructure.clusterEndpoints).toBe(kafkaClusterEndpoints);
    } finally {
      await provider.close();
    }
  });
});

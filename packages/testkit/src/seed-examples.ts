/**
 * The seed's CREATE STREAM "widgets_v0" example (seed 000, "Streams"), as config maps: tests of the
 * providers and the registry check that the spec's own example is accepted and realized.
 */
export const seedWidgetsStream = {
  name: "widgets_v0",
  config: {
    "acme.kafka": { owner: "bob@acme.com", team: "widgets-team", costcenter: "341D" },
    "apache.kafka": {
      partitions: 10,
      replication: 4,
      min_isr: 2,
      compacted: "true",
      compression: "snappy",
      "unclean.leader.election.enable": "false",
      "key.serde": "string",
      "value.serde": "specific",
    },
  },
  producerConfig: { "apache.kafka": { acks: "all", retries: 0, "enable.idempotence": "false" } },
  consumerConfig: { "apache.kafka": { acks: "all", retries: 0, "enable.idempotence": "false" } },
};

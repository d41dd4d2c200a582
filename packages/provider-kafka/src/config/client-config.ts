import { boolean, integer, oneOf, text } from "./key-spec.ts";

const ms = (description: string) => integer({ description, min: 0, max: 2_147_483_647 });
const bytes = (description: string) => integer({ description, min: 0, max: 2_147_483_647 });
const name = (description: string) => text({ description });

/**
 * The producer/consumer "apache.kafka" keys: common Kafka client configs, type-checked and handed to
 * clients as they are. One set serves both scopes because the seed's own example puts producer keys
 * (acks, retries, enable.idempotence) in a consumer config; an unknown key is refused so a typo
 * does not reach every client of the stream.
 */
export const clientKeys = {
  acks: oneOf(["all", "-1", "0", "1"], { description: "Producer: acknowledgements a write waits for." }),
  retries: integer({ description: "Producer: resend attempts.", min: 0, max: 2_147_483_647 }),
  "enable.idempotence": boolean({ description: "Producer: exactly-once per partition." }),
  "max.in.flight.requests.per.connection": integer({
    description: "Producer: unacknowledged requests per connection.",
    min: 1,
    max: 1000,
  }),
  "linger.ms": ms("Producer: how long to wait to fill a batch."),
  "batch.size": bytes("Producer: batch size in bytes."),
  "buffer.memory": bytes("Producer: memory for unsent records."),
  "max.request.size": bytes("Producer: largest request."),
  "compression.type": oneOf(["none", "gzip", "snappy", "lz4", "zstd"], {
    description: "Producer: batch compression.",
  }),
  "delivery.timeout.ms": ms("Producer: upper bound to report a send's outcome."),
  "request.timeout.ms": ms("Client: how long to wait for one request."),
  "retry.backoff.ms": ms("Client: wait before retrying a failed request."),
  "transactional.id": name("Producer: transactional id."),
  "partitioner.class": name("Producer: partitioner."),
  "key.serializer": name("Producer: key serializer."),
  "value.serializer": name("Producer: value serializer."),
  "client.id": name("Client: id in broker logs and quotas."),
  "client.rack": name("Client: rack, for follower fetching."),
  "group.id": name("Consumer: consumer group."),
  "group.instance.id": name("Consumer: static membership id."),
  "auto.offset.reset": oneOf(["earliest", "latest", "none"], {
    description: "Consumer: where to start without a committed offset.",
  }),
  "enable.auto.commit": boolean({ description: "Consumer: commit offsets periodically." }),
  "auto.commit.interval.ms": ms("Consumer: period of automatic commits."),
  "isolation.level": oneOf(["read_uncommitted", "read_committed"], {
    description: "Consumer: whether aborted transactional records are visible.",
  }),
  "max.poll.records": integer({ description: "Consumer: records per poll.", min: 1, max: 2_147_483_647 }),
  "max.poll.interval.ms": ms("Consumer: longest gap between polls."),
  "session.timeout.ms": ms("Consumer: group session timeout."),
  "heartbeat.interval.ms": ms("Consumer: heartbeat period."),
  "fetch.min.bytes": bytes("Consumer: least data a fetch waits for."),
  "fetch.max.bytes": bytes("Consumer: most data per fetch."),
  "fetch.max.wait.ms": ms("Consumer: longest wait for fetch.min.bytes."),
  "max.partition.fetch.bytes": bytes("Consumer: most data per partition per fetch."),
  "partition.assignment.strategy": name("Consumer: assignor(s)."),
  "allow.auto.create.topics": boolean({ description: "Consumer: whether subscribing may create topics." }),
  "key.deserializer": name("Consumer: key deserializer."),
  "value.deserializer": name("Consumer: value deserializer."),
};

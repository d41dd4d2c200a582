import {
  isPermanentProviderError,
  isProviderError,
  isResourceConflictError,
  type BatchOutcome,
  type ClusterTarget,
} from "@stream-registry/provider-api";
import { useSharedKafkaClusters } from "@stream-registry/testkit/vitest";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createKafkaProvider, type KafkaFactory } from "../src/index.ts";
import {
  bindingRequest,
  clusterTarget,
  context,
  countingProvider,
  inspectTopic,
  ownAdmin,
  topicName,
} from "./support/kafka-targets.ts";

const kafka = useSharedKafkaClusters();
const { provider, counts } = countingProvider();
const infra = provider.infrastructure;
let cluster: ClusterTarget;

beforeAll(() => {
  cluster = clusterTarget(kafka.at(0).bootstrapServers, "kafka-batch");
});
afterAll(() => provider.close());

/** Each outcome failed as its own call would have: retriable, its message naming its topic. */
function expectEachUnreachable(outcomes: BatchOutcome<unknown>[], names: string[], verb: string): void {
  expect(outcomes).toHaveLength(names.length);
  outcomes.forEach((outcome, index) => {
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: unknown }).error;
    expect(isProviderError(error) && error.retriable).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`^${verb} topic "${names[index]}" on Kafka cluster .* failed: cannot reach the cluster`),
    );
  });
}

const maps = (partitions: number, extra: Record<string, string | number> = {}) => ({
  "apache.kafka": { partitions, replication: 1, ...extra },
});

describe("createStreamBindings", () => {
  it("creates many topics in one request, each outcome its own: a refusal fails only that topic", async () => {
    const created = Array.from({ length: 20 }, (_, i) => topicName(`batch${i}`));
    const [conflicting, adopted, tooManyReplicas, invalid] = ["conflict", "adopt", "replicas", "invalid"].map(
      topicName,
    ) as [string, string, string, string];
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    await admin.createTopics({
      topics: [
        { topic: conflicting, numPartitions: 5, replicationFactor: 1 },
        { topic: adopted, numPartitions: 2, replicationFactor: 1 },
      ],
      waitForLeaders: true,
    });

    const outcomes = await infra.createStreamBindings(
      [
        ...created.map((name, i) => bindingRequest(name, cluster, maps(1 + (i % 3)))),
        bindingRequest(conflicting, cluster, maps(2)),
        bindingRequest(adopted, cluster, maps(2)),
        // One broker: the broker refuses a replication factor of 3 for this topic alone.
        bindingRequest(tooManyReplicas, cluster, { "apache.kafka": { partitions: 1, replication: 3 } }),
        bindingRequest(invalid, cluster, maps(0)),
      ],
      context(),
    );

    expect(outcomes).toHaveLength(24);
    for (const [i, name] of created.entries()) {
      expect(outcomes[i]).toEqual({
        ok: true,
        value: expect.objectContaining({ message: expect.stringContaining(`created topic "${name}"`) }),
      });
      expect((await inspectTopic(admin, name)).partitions).toBe(1 + (i % 3));
    }
    const [conflict, adoption, replicas, refused] = outcomes.slice(20);
    expect(conflict).toMatchObject({ ok: false });
    expect(isResourceConflictError(!conflict!.ok && conflict!.error)).toBe(true);
    expect(adoption).toEqual({
      ok: true,
      value: expect.objectContaining({ message: expect.stringContaining("adopted existing") }),
    });
    expect(replicas!.ok).toBe(false);
    const replicasError = !replicas!.ok ? replicas!.error : undefined;
    expect(isProviderError(replicasError)).toBe(true);
    expect((replicasError as Error).message).toMatch(
      new RegExp(`create topic "${tooManyReplicas}".*INVALID_REPLICATION_FACTOR|replication`, "s"),
    );
    expect(refused!.ok).toBe(false);
    expect(isPermanentProviderError(!refused!.ok && refused!.error)).toBe(true);
    const { topics } = await admin.fetchTopicMetadata({ topics: [] });
    const names = new Set(topics.map((topic) => topic.name));
    expect(names.has(tooManyReplicas)).toBe(false);
    expect(names.has(invalid)).toBe(false);
  });

  it("fails each request in its own words when the cluster cannot be reached", async () => {
    const unreachable = clusterTarget("127.0.0.1:1", "kafka-nowhere", {
      "socket.connection.setup.timeout.ms": 300,
    });
    const names = [topicName("nowhere"), topicName("nowhere")];
    const outcomes = await infra.createStreamBindings(
      names.map((name) => bindingRequest(name, unreachable, maps(1))),
      context(),
    );
    // Each fails as its own create would have: retriable, and its message names its topic.
    expectEachUnreachable(outcomes, names, "create");
  });
});

describe("deleteStreamBindings", () => {
  it("deletes many topics with one DeleteTopics request; one already gone is deleted too", async () => {
    const names = Array.from({ length: 12 }, (_, i) => topicName(`unbind${i}`));
    const gone = topicName("never-made");
    const made = await infra.createStreamBindings(
      names.map((name) => bindingRequest(name, cluster, maps(1))),
      context(),
    );
    expect(made.every((outcome) => outcome.ok)).toBe(true);
    const before = counts.requests.DeleteTopics ?? 0;

    const outcomes = await infra.deleteStreamBindings(
      [...names, gone].map((streamName) => ({ streamName, cluster })),
      context(),
    );

    expect(outcomes).toEqual([...names, gone].map(() => ({ ok: true, value: undefined })));
    expect((counts.requests.DeleteTopics ?? 0) - before).toBe(1);
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    const left = new Set(await admin.listTopics());
    expect(names.filter((name) => left.has(name))).toEqual([]);
  });

  it("deletes one by one when the broker refuses the batch, so a refusal fails only its own topic", async () => {
    // The broker refuses a DeleteTopics only for want of rights, which a test broker grants; so
    // kafkajs refuses here instead, as it does in production: without saying for which topic.
    const refusedTopic = topicName("unbind-refused");
    const refusal = () =>
      Object.assign(new Error("Not authorized to access topics: [Topic authorization failed]"), {
        name: "KafkaJSProtocolError",
        type: "TOPIC_AUTHORIZATION_FAILED",
        code: 29,
        retriable: false,
      });
    const factory: KafkaFactory = (config) => {
      const kafka = new Kafka({ ...config, logLevel: logLevel.NOTHING });
      const admin = kafka.admin.bind(kafka);
      kafka.admin = (adminConfig) => {
        const client = admin(adminConfig);
        const deleteTopics = client.deleteTopics.bind(client);
        client.deleteTopics = async (request) => {
          if (request.topics.length > 1 || request.topics.includes(refusedTopic)) throw refusal();
          return deleteTopics(request);
        };
        return client;
      };
      return kafka;
    };
    const refusing = createKafkaProvider({ logLevel: "nothing", kafkaFactory: factory });
    onTestFinished(() => refusing.close());
    const names = [topicName("unbind-a"), refusedTopic, topicName("unbind-b")];
    const made = await infra.createStreamBindings(
      names.map((name) => bindingRequest(name, cluster, maps(1))),
      context(),
    );
    expect(made.every((outcome) => outcome.ok)).toBe(true);

    const outcomes = await refusing.infrastructure.deleteStreamBindings!(
      names.map((streamName) => ({ streamName, cluster })),
      context(),
    );

    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
    const error = (outcomes[1] as { error: unknown }).error;
    expect(isProviderError(error)).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`^delete topic "${refusedTopic}" .*authoriz`, "is"));
    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    const left = new Set(await admin.listTopics());
    expect(names.filter((name) => left.has(name))).toEqual([refusedTopic]);
  });

  it("fails each in its own words when the cluster cannot be reached", async () => {
    const unreachable = clusterTarget("127.0.0.1:1", "kafka-nowhere-delete", {
      "socket.connection.setup.timeout.ms": 300,
    });
    const names = [topicName("nowhere"), topicName("nowhere")];
    const outcomes = await infra.deleteStreamBindings(
      names.map((streamName) => ({ streamName, cluster: unreachable })),
      context(),
    );
    expectEachUnreachable(outcomes, names, "delete");
  });
});

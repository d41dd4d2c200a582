import {
  InfrastructureError,
  isProviderError,
  settle,
  type BatchOutcome,
  type BindingObservation,
  type BindingRequest,
  type BindingTarget,
  type ClusterTarget,
  type OperationContext,
} from "@stream-registry/provider-api";
import type { DesiredTopic } from "./config/config-maps.ts";
import { isOutage, type KafkaConnections } from "./connection/kafka-connections.ts";
import { toInfrastructureError } from "./errors/kafka-errors.ts";
import { adopt, desiredTopic, observe } from "./topic/binding-topic.ts";
import { createdTopic, createTopics, deleteTopics } from "./topic/topic-admin.ts";

/**
 * createStreamBindings: one CreateTopics request for all the topics (their desired configs checked
 * first, each on its own); then, topic by topic, what a single create does after its request: wait
 * for the new topic's leaders and observe it, or adopt the existing one, or report its refusal.
 */
export async function createBindingTopics(
  connections: KafkaConnections,
  requests: readonly BindingRequest[],
  context: OperationContext,
): Promise<BatchOutcome<BindingObservation>[]> {
  const target = oneCluster(requests, "createStreamBindings");
  if (!target) return [];
  const cluster = connections.resolve(target);
  const outcomes: BatchOutcome<BindingObservation>[] = [];
  const topics: { index: number; name: string; desired: DesiredTopic }[] = [];
  requests.forEach((request, index) => {
    try {
      topics.push({
        index,
        name: request.streamName,
        desired: desiredTopic(request.streamName, request.configMaps),
      });
    } catch (error) {
      outcomes[index] = { ok: false, error };
    }
  });
  if (topics.length === 0) return outcomes;
  const { requestTimeoutMs } = cluster.settings;
  const batchAction = `create ${topics.length} topic(s)`;
  let created;
  try {
    created = await connections.withAdmin(cluster, context, batchAction, (admin) =>
      createTopics(admin, topics, requestTimeoutMs),
    );
  } catch (error) {
    // The one request failed (the cluster out of reach): each topic fails as its own create would
    // have, in words that name it, so its binding's status says which topic.
    for (const { index, name } of topics) {
      outcomes[index] = { ok: false, error: renamed(error, batchAction, `create topic "${name}"`) };
    }
    return outcomes;
  }
  const { existing, refused } = created;
  // Each topic's follow-up (leaders, observation, adoption) has its own deadline: one request for
  // many topics must not make their follow-ups share one.
  await Promise.all(
    topics.map(async ({ index, name, desired }) => {
      const action = `create topic "${name}"`;
      try {
        if (refused.has(name)) throw refused.get(name);
        const value = await connections.withAdmin(cluster, context, action, async (admin, offsets) =>
          existing.has(name)
            ? adopt({ admin, offsets, cluster }, name, desired)
            : observe(offsets, await createdTopic(admin, name, desired, requestTimeoutMs), "created"),
        );
        outcomes[index] = { ok: true, value };
      } catch (error) {
        const brokers = cluster.settings.brokers;
        outcomes[index] = {
          ok: false,
          error: toInfrastructureError(error, { action, cluster: cluster.label, brokers }),
        };
      }
    }),
  );
  return outcomes;
}

/**
 * deleteStreamBindings: one Metadata request for which of the topics exist, then one DeleteTopics
 * request for those. kafkajs does not say which topic a refused DeleteTopics was refused for, so if
 * it fails, each topic is deleted on its own (`deleteOne`), with its own outcome.
 */
export async function deleteBindingTopics(
  connections: KafkaConnections,
  bindings: readonly BindingTarget[],
  context: OperationContext,
  deleteOne: (binding: BindingTarget) => Promise<void>,
): Promise<BatchOutcome<void>[]> {
  const target = oneCluster(bindings, "deleteStreamBindings");
  if (!target) return [];
  const cluster = connections.resolve(target);
  const names = bindings.map((binding) => binding.streamName);
  const batchAction = `delete ${names.length} topic(s)`;
  try {
    await connections.withAdmin(cluster, context, batchAction, async (admin) => {
      const existing = new Set(await admin.listTopics());
      const topics = names.filter((name) => existing.has(name));
      if (topics.length > 0) await deleteTopics(admin, topics, cluster.settings.requestTimeoutMs);
    });
    return names.map(() => ({ ok: true, value: undefined }));
  } catch (error) {
    // Refused (kafkajs names no topic) or one vanished meanwhile: each on its own.
    if (!isOutage(error)) return Promise.all(bindings.map((binding) => settle(deleteOne(binding))));
    // The cluster out of reach: each fails as its own delete would have, naming its topic.
    return names.map((name) => ({ ok: false, error: renamed(error, batchAction, `delete topic "${name}"`) }));
  }
}

/** The one cluster a batch's items all name (undefined for none); a batch is per cluster. */
function oneCluster(items: readonly { cluster: ClusterTarget }[], method: string): ClusterTarget | undefined {
  const first = items[0]?.cluster;
  if (first && items.some((item) => item.cluster.name !== first.name)) {
    throw new Error(`${method}: every item must name the same cluster`);
  }
  return first;
}

/** `error` as the failure of `action` instead of `batchAction`, which its message starts with. */
function renamed(error: unknown, batchAction: string, action: string): unknown {
  if (!isProviderError(error) || !error.message.startsWith(batchAction)) return error;
  return new InfrastructureError(action + error.message.slice(batchAction.length), {
    retriable: error.retriable,
    issues: [...error.issues],
    cause: error,
  });
}

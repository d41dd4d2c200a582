import type { ConfigMaps } from "@stream-registry/core";
import {
  configRejected,
  InfrastructureError,
  isProviderError,
  ResourceConflictError,
  type BatchOutcome,
  type BindingObservation,
  type BindingRequest,
  type ClusterProbe,
  type ClusterTarget,
  type ConfigIssue,
  type OperationContext,
  type StreamInfrastructureManager,
} from "@stream-registry/provider-api";
import type { Admin } from "kafkajs";
import { desiredTopicOf, KAFKA_MAP, type DesiredTopic } from "./config/config-maps.ts";
import type { KafkaConnections, OffsetsReader } from "./connection/kafka-connections.ts";
import { isOutage, resolveSettings, type ResolvedCluster } from "./connection/kafka-connections.ts";
import { toInfrastructureError } from "./errors/kafka-errors.ts";
import {
  countRecords,
  createdTopic,
  createTopic,
  createTopics,
  deleteTopic,
  deleteTopics,
  describeTopic,
  growPartitions,
  writeTopicOverrides,
} from "./topic/topic-admin.ts";
import { planTopicUpdate, topicDifferences, type ActualTopic } from "./topic/topic-state.ts";

/** How long validation waits for a cluster before skipping its cluster checks. */
const CLUSTER_CHECK_TIMEOUT_MS = 3000;

/** The desired topic of a binding, or a permanent refusal naming every bad key. */
function desiredTopic(streamName: string, maps: ConfigMaps): DesiredTopic {
  const { topic, issues } = desiredTopicOf(maps);
  if (issues.length > 0) {
    throw configRejected(
      `stream "${streamName}" has an invalid Kafka config: ${issues.map((issue) => issue.message).join("; ")}`,
      issues,
    );
  }
  return topic;
}

async function observe(
  offsets: OffsetsReader,
  topic: ActualTopic,
  verb: string,
): Promise<BindingObservation> {
  const count = await countRecords(offsets, topic.name);
  const records =
    "records" in count ? `${count.records} record(s)` : `records not counted (${count.unknown})`;
  return {
    message:
      `${verb} topic "${topic.name}": ${topic.partitions} partition(s), replication factor ` +
      `${topic.replicationFactor}, ${records}`,
    details: {
      partitions: topic.partitions,
      replicationFactor: topic.replicationFactor,
      configs: { ...topic.overrides },
      ...("records" in count ? { records: count.records } : {}),
    },
  };
}

/**
 * The Kafka StreamInfrastructureManager: a binding is a topic named like the stream. Every method is
 * idempotent and runs against the cluster's one pooled admin client.
 */
export function createKafkaInfrastructure(connections: KafkaConnections) {
  async function probe(admin: Admin, started: number) {
    const cluster = await admin.describeCluster();
    return {
      latencyMs: Date.now() - started,
      brokerCount: cluster.brokers.length,
      details: {
        clusterId: cluster.clusterId,
        controller: cluster.controller,
        brokers: cluster.brokers.map((broker) => `${broker.host}:${broker.port}`),
      },
    };
  }

  /**
   * Creates the topic, or adopts an existing one with the same settings. Creating first (instead of
   * looking first) saves a metadata round trip per create; an existing topic makes it a no-op.
   */
  async function createOrAdopt(
    admin: Admin,
    offsets: OffsetsReader,
    cluster: ResolvedCluster,
    name: string,
    desired: DesiredTopic,
  ): Promise<BindingObservation> {
    const created = await createTopic(admin, name, desired, cluster.settings.requestTimeoutMs);
    if (created) return observe(offsets, created, "created");
    return adopt(admin, offsets, cluster, name, desired);
  }

  /** A topic of that name exists: adopted if it has the desired settings, refused otherwise. */
  async function adopt(
    admin: Admin,
    offsets: OffsetsReader,
    cluster: ResolvedCluster,
    name: string,
    desired: DesiredTopic,
  ): Promise<BindingObservation> {
    const existing = await describeTopic(admin, name);
    if (!existing) {
      throw new InfrastructureError(
        `topic "${name}" on Kafka cluster "${cluster.label}" could not be created: a topic of that name ` +
          `exists but is not visible (it may still be being deleted)`,
        { retriable: true },
      );
    }
    const differences = topicDifferences(desired, existing);
    if (differences.length > 0) {
      throw new ResourceConflictError(
        `topic "${name}" exists on Kafka cluster "${cluster.label}" with different settings: ` +
          `${differences.join("; ")}. An existing topic is adopted only as it is, never altered: ` +
          `align the stream's config with it or delete the topic`,
      );
    }
    return observe(offsets, existing, "adopted existing");
  }

  const infrastructure = {
    async validateCluster(
      clusterName: string,
      configMaps: ConfigMaps,
      context: OperationContext,
    ): Promise<ClusterProbe> {
      const settings = resolveSettings(clusterName, configMaps);
      return connections.withTransientAdmin(clusterName, settings, context, "probe", (admin) =>
        probe(admin, Date.now()),
      );
    },

    async probeCluster(target: ClusterTarget, context: OperationContext): Promise<ClusterProbe> {
      const cluster = connections.resolve(target);
      const result = await connections.withAdmin(cluster, context, "probe", (admin) =>
        probe(admin, Date.now()),
      );
      connections.health.probed(cluster.key, result.latencyMs, result.brokerCount);
      return { ...result, details: { ...result.details, ...connections.health.details(cluster.key) } };
    },

    async validateStream(
      streamName: string,
      configMaps: ConfigMaps,
      context: OperationContext & { cluster?: ClusterTarget },
    ): Promise<void> {
      const desired = desiredTopic(streamName, configMaps);
      if (!context.cluster) return;
      const cluster = connections.resolve(context.cluster);
      let issues: ConfigIssue[];
      try {
        issues = await connections.withAdmin(
          cluster,
          context,
          `check topic "${streamName}"`,
          async (admin) => {
            const { brokers } = await admin.describeCluster();
            const actual = await describeTopic(admin, streamName);
            return clusterFitIssues(streamName, cluster.label, desired, brokers.length, actual);
          },
          { timeoutMs: CLUSTER_CHECK_TIMEOUT_MS },
        );
      } catch (error) {
        // The cluster checks are an early warning: create and update enforce the same rules, so a
        // binding made while its cluster is down is accepted and waits PENDING for it. Any other
        // error (a refusal, a bug) is reported, not taken for an outage.
        if (isOutage(error) && !context.signal.aborted) return;
        throw error;
      }
      if (issues.length > 0) {
        throw configRejected(
          `stream "${streamName}" does not fit Kafka cluster "${cluster.label}": ${issues.map((i) => i.message).join("; ")}`,
          issues,
        );
      }
    },

    async createStreamBinding(
      request: BindingRequest,
      context: OperationContext,
    ): Promise<BindingObservation> {
      const desired = desiredTopic(request.streamName, request.configMaps);
      const cluster = connections.resolve(request.cluster);
      const name = request.streamName;
      return connections.withAdmin(cluster, context, `create topic "${name}"`, (admin, offsets) =>
        createOrAdopt(admin, offsets, cluster, name, desired),
      );
    },

    /**
     * One CreateTopics request for all the topics (their desired configs checked first, each on
     * its own); then, topic by topic, what createStreamBinding does after its create: wait for the
     * new topic's leaders and observe it, or adopt the existing one, or report its refusal.
     */
    async createStreamBindings(
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
        // The one request failed (the cluster out of reach): each topic fails as its own create
        // would have, in words that name it, so its binding's status says which topic.
        for (const { index, name } of topics) {
          outcomes[index] = { ok: false, error: renamed(error, batchAction, `create topic "${name}"`) };
        }
        return outcomes;
      }
      const { existing, refused } = created;
      // Each topic's follow-up (leaders, observation, adoption) has its own deadline: one request
      // for many topics must not make their follow-ups share one.
      await Promise.all(
        topics.map(async ({ index, name, desired }) => {
          const action = `create topic "${name}"`;
          try {
            if (refused.has(name)) throw refused.get(name);
            const value = await connections.withAdmin(cluster, context, action, async (admin, offsets) =>
              existing.has(name)
                ? adopt(admin, offsets, cluster, name, desired)
                : observe(offsets, await createdTopic(admin, name, desired, requestTimeoutMs), "created"),
            );
            outcomes[index] = { ok: true, value };
          } catch (error) {
            const brokers = cluster.settings.brokers;
            const mapped = toInfrastructureError(error, { action, cluster: cluster.label, brokers });
            outcomes[index] = { ok: false, error: mapped };
          }
        }),
      );
      return outcomes;
    },

    async updateStreamBinding(
      request: BindingRequest,
      context: OperationContext,
    ): Promise<BindingObservation> {
      const desired = desiredTopic(request.streamName, request.configMaps);
      const cluster = connections.resolve(request.cluster);
      const name = request.streamName;
      return connections.withAdmin(cluster, context, `update topic "${name}"`, async (admin, offsets) => {
        const actual = await describeTopic(admin, name);
        // Deleted behind the registry's back: the binding's desired state still says it exists.
        if (!actual) return createOrAdopt(admin, offsets, cluster, name, desired);
        const plan = planTopicUpdate(desired, actual);
        if (plan.refusals.length > 0) {
          throw configRejected(
            `topic "${name}" on Kafka cluster "${cluster.label}" cannot be updated: ${plan.refusals.join("; ")}`,
          );
        }
        const changes: string[] = [];
        if (plan.overrides) {
          await writeTopicOverrides(admin, name, plan.overrides);
          changes.push(`set ${plan.changedConfigs.join(", ")}`);
        }
        if (plan.partitions !== undefined) {
          await growPartitions(admin, name, plan.partitions, cluster.settings.requestTimeoutMs);
          changes.push(`partitions ${actual.partitions} -> ${plan.partitions}`);
        }
        const after = changes.length > 0 ? await describeTopic(admin, name) : actual;
        const verb = changes.length > 0 ? `updated (${changes.join("; ")})` : "unchanged";
        return observe(offsets, after ?? actual, verb);
      });
    },

    async observeStreamBinding(
      streamName: string,
      target: ClusterTarget,
      context: OperationContext,
    ): Promise<BindingObservation | null> {
      const cluster = connections.resolve(target);
      return connections.withAdmin(
        cluster,
        context,
        `observe topic "${streamName}"`,
        async (admin, offsets) => {
          const actual = await describeTopic(admin, streamName);
          return actual ? observe(offsets, actual, "observed") : null;
        },
      );
    },

    async deleteStreamBinding(
      streamName: string,
      target: ClusterTarget,
      context: OperationContext,
    ): Promise<void> {
      const cluster = connections.resolve(target);
      await connections.withAdmin(cluster, context, `delete topic "${streamName}"`, async (admin) => {
        const exists = await describeTopic(admin, streamName);
        if (exists) await deleteTopic(admin, streamName, cluster.settings.requestTimeoutMs);
      });
    },

    /**
     * One Metadata request for which of the topics exist, then one DeleteTopics request for those.
     * kafkajs does not say which topic a refused DeleteTopics was refused for, so if it fails,
     * each topic is deleted on its own, with its own outcome.
     */
    async deleteStreamBindings(
      bindings: readonly { streamName: string; cluster: ClusterTarget }[],
      context: OperationContext,
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
        if (!isOutage(error)) {
          // Refused (kafkajs names no topic) or one vanished meanwhile: each on its own.
          return Promise.all(
            bindings.map(({ streamName, cluster: target }) =>
              infrastructure.deleteStreamBinding(streamName, target, context).then(
                () => ({ ok: true as const, value: undefined }),
                (single: unknown) => ({ ok: false as const, error: single }),
              ),
            ),
          );
        }
        // The cluster out of reach: each fails as its own delete would have, naming its topic.
        return names.map((name) => ({
          ok: false,
          error: renamed(error, batchAction, `delete topic "${name}"`),
        }));
      }
    },
  } satisfies StreamInfrastructureManager;
  return infrastructure;
}

/** What a binding's topic cannot be on this cluster: too many replicas, a shrink, a replication change. */
export function clusterFitIssues(
  streamName: string,
  clusterLabel: string,
  desired: DesiredTopic,
  brokerCount: number,
  actual: ActualTopic | null,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const replication = desired.replicationFactor;
  if (replication !== undefined && replication > brokerCount) {
    issues.push({
      field: [KAFKA_MAP, "replication"],
      message: `"replication" ${replication} is more than the ${brokerCount} broker(s) of Kafka cluster "${clusterLabel}"`,
    });
  }
  const minIsr = desired.configs["min.insync.replicas"];
  if (replication === undefined && minIsr !== undefined && Number(minIsr) > brokerCount) {
    issues.push({
      field: [KAFKA_MAP, "min_isr"],
      message: `"min_isr" ${minIsr} is more than the ${brokerCount} broker(s) of Kafka cluster "${clusterLabel}"`,
    });
  }
  if (actual) {
    if (desired.partitions !== undefined && desired.partitions < actual.partitions) {
      issues.push({
        field: [KAFKA_MAP, "partitions"],
        message:
          `topic "${streamName}" already has ${actual.partitions} partitions; "partitions" ${desired.partitions} would ` +
          `decrease them, which Kafka cannot do`,
      });
    }
    if (replication !== undefined && replication !== actual.replicationFactor) {
      issues.push({
        field: [KAFKA_MAP, "replication"],
        message:
          `topic "${streamName}" already has replication factor ${actual.replicationFactor}; changing it to ` +
          `${replication} needs a partition reassignment, which this provider does not do`,
      });
    }
  }
  return issues;
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

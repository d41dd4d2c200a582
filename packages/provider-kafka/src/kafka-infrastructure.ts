import type { ConfigMaps } from "@stream-registry/core";
import {
  configRejected,
  ConnectNotAllowedError,
  type BindingObservation,
  type BindingRequest,
  type BindingTarget,
  type ClusterProbe,
  type ClusterTarget,
  type ConfigIssue,
  type OperationContext,
  type StreamInfrastructureManager,
} from "@stream-registry/provider-api";
import type { Admin } from "kafkajs";
import { createBindingTopics, deleteBindingTopics } from "./batch-bindings.ts";
import { kafkaClusterEndpoints } from "./config/cluster-endpoints.ts";
import { advertisedRefusals, connectRefusalOf, type BrokerCheck } from "./connection/guarded-sockets.ts";
import type { KafkaConnections } from "./connection/kafka-connections.ts";
import { isOutage, resolveSettings } from "./connection/kafka-connections.ts";
import { createOrAdopt, desiredTopic, observe } from "./topic/binding-topic.ts";
import { clusterFitIssues } from "./topic/cluster-fit.ts";
import { deleteTopic, describeTopic, growPartitions, writeTopicOverrides } from "./topic/topic-admin.ts";
import { planTopicUpdate } from "./topic/topic-state.ts";

/** How long validation waits for a cluster before skipping its cluster checks. */
const CLUSTER_CHECK_TIMEOUT_MS = 3000;

/**
 * The Kafka StreamInfrastructureManager: a binding is a topic named like the stream. Every method is
 * idempotent and runs against the cluster's one pooled admin client.
 */
export function createKafkaInfrastructure(connections: KafkaConnections) {
  /** A probe of the cluster; with `check`, brokers it advertises outside the allow-list refuse it. */
  async function probe(admin: Admin, started: number, check?: BrokerCheck) {
    const cluster = await admin.describeCluster();
    const refused = check ? await advertisedRefusals(check, cluster.brokers) : [];
    if (refused.length > 0)
      throw new ConnectNotAllowedError(refused.map((issue) => issue.message).join("; "), refused);
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

  /** Deletes the binding's topic; one already gone is success. */
  async function deleteStreamBinding(
    streamName: string,
    target: ClusterTarget,
    context: OperationContext,
  ): Promise<void> {
    const cluster = connections.resolve(target);
    await connections.withAdmin(cluster, context, `delete topic "${streamName}"`, async (admin) => {
      const exists = await describeTopic(admin, streamName);
      if (exists) await deleteTopic(admin, streamName, cluster.settings.requestTimeoutMs);
    });
  }

  const infrastructure = {
    /** The bootstrap servers: checked against the registry's allow-list before anything connects. */
    clusterEndpoints: kafkaClusterEndpoints,

    async validateCluster(
      clusterName: string,
      configMaps: ConfigMaps,
      context: OperationContext,
    ): Promise<ClusterProbe> {
      const settings = resolveSettings(clusterName, configMaps);
      // Before any call reaches them, the brokers the cluster advertises are checked, and a client's
      // connection to one outside the allow-list is refused (as its own error: not an outage).
      const check = connections.brokerCheck(settings);
      try {
        return await connections.withTransientAdmin(clusterName, settings, context, "probe", (admin) =>
          probe(admin, Date.now(), check),
        );
      } catch (error) {
        throw connectRefusalOf(error) ?? error;
      }
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
        createOrAdopt({ admin, offsets, cluster }, name, desired),
      );
    },

    createStreamBindings: (requests: readonly BindingRequest[], context: OperationContext) =>
      createBindingTopics(connections, requests, context),

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
        if (!actual) return createOrAdopt({ admin, offsets, cluster }, name, desired);
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

    deleteStreamBinding,

    deleteStreamBindings: (bindings: readonly BindingTarget[], context: OperationContext) =>
      deleteBindingTopics(connections, bindings, context, ({ streamName, cluster }) =>
        deleteStreamBinding(streamName, cluster, context),
      ),
  } satisfies StreamInfrastructureManager;
  return infrastructure;
}

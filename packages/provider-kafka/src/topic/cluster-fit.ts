import type { ConfigIssue } from "@stream-registry/provider-api";
import { KAFKA_MAP, type DesiredTopic } from "../config/config-maps.ts";
import type { ActualTopic } from "./topic-state.ts";

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

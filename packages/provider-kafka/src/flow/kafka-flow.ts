import type {
  ConsumerGroupFlow,
  FlowObservation,
  FlowObserver,
  PartitionOffsets,
  StreamFlow,
} from "@stream-registry/provider-api";
import type { KafkaConnections, ResolvedCluster } from "../connection/kafka-connections.ts";
import type { OperationContext } from "@stream-registry/provider-api";
import {
  describeConsumerGroups,
  fetchCommittedOffsets,
  listConsumerGroups,
  type CommittedOffsets,
  type GroupFacts,
} from "./consumer-groups.ts";
import { readTopicEnds, type TopicEnds } from "./end-offsets.ts";
import { connectorNameOf } from "../connect/manager.ts";

/**
 * Groups whose offsets one call fetches, and topics whose end offsets one call reads: each call has
 * the cluster's deadline (default.api.timeout.ms), so a round of many is several calls.
 */
const GROUPS_PER_CALL = 200;
const TOPICS_PER_CALL = 50;
/** Requests in flight at once within a call. */
const OFFSET_FETCHES_AT_ONCE = 16;
const TOPICS_AT_ONCE = 4;

/**
 * Data in flight on a Kafka cluster, in one round: the groups listed and described once, each
 * group's committed offsets fetched once (for all its topics), then each stream's end offsets.
 * Committed offsets are read before end offsets, so a lag is never made negative by the order of
 * the reads. Lag is end - committed whatever the describe call answered: a group on the consumer
 * protocol (KIP-848), which kafkajs describes as Dead, has its lag too.
 */
export function createKafkaFlow(connections: KafkaConnections): Required<FlowObserver> {
  return {
    async observeFlow(target, streams, context) {
      const cluster = connections.resolve(target);
      const observedAt = new Date().toISOString();
      const { facts, committed } = await readGroups(connections, cluster, context);
      const ends = new Map<string, TopicEnds>();
      for (const topics of chunks([...new Set(streams)], TOPICS_PER_CALL)) {
        const read = await connections.withAdmin(
          cluster,
          context,
          `read the end offsets of ${topics.length} topic(s)`,
          (_, offsets) => readTopicEnds(offsets, topics, TOPICS_AT_ONCE),
        );
        for (const [topic, end] of read) ends.set(topic, end);
      }
      return {
        observedAt,
        streams: streams.map((stream) => streamFlow(stream, ends.get(stream)!, facts, committed)),
      } satisfies FlowObservation;
    },
    // Kafka Connect's default group of a sink connector (no consumer.override.group.id is set).
    sinkGroup: (sinkName) => `connect-${connectorNameOf(sinkName, "sink")}`,
  };
}

async function readGroups(
  connections: KafkaConnections,
  cluster: ResolvedCluster,
  context: OperationContext,
) {
  const facts = await connections.withAdmin(
    cluster,
    context,
    "list and describe consumer groups",
    async (admin) => describeConsumerGroups(admin, await listConsumerGroups(admin)),
  );
  const committed = new Map<string, CommittedOffsets>();
  for (const groups of chunks([...facts.keys()], GROUPS_PER_CALL)) {
    const fetched = await connections.withAdmin(
      cluster,
      context,
      `fetch the committed offsets of ${groups.length} consumer group(s)`,
      (admin) => fetchCommittedOffsets(admin, groups, OFFSET_FETCHES_AT_ONCE),
    );
    for (const [group, offsets] of fetched) committed.set(group, offsets);
  }
  return { facts, committed };
}

function streamFlow(
  stream: string,
  ends: TopicEnds,
  facts: Map<string, GroupFacts>,
  committed: Map<string, CommittedOffsets>,
): StreamFlow {
  if ("error" in ends) return { stream, partitions: [], records: 0, groups: [], error: ends.error };
  const { partitions } = ends;
  const groups: ConsumerGroupFlow[] = [];
  for (const [group, byTopic] of committed) {
    const own = byTopic.get(stream);
    if (!own) continue;
    const fact = facts.get(group)!;
    groups.push({ ...fact, ...groupLag(partitions, own) });
  }
  groups.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
  const records = partitions.reduce((sum, p) => sum + (p.end - p.start), 0);
  return { stream, partitions, records, groups };
}

/** A group's lag on each partition of the topic; a partition it never committed on lags by all it holds. */
function groupLag(partitions: readonly PartitionOffsets[], committed: ReadonlyMap<number, number>) {
  const rows = partitions.map(({ partition, start, end }) => {
    const offset = committed.get(partition);
    const lag = Math.max(0, end - (offset ?? start));
    return { partition, committed: offset ?? null, end, lag };
  });
  return { lag: rows.reduce((sum, row) => sum + row.lag, 0), partitions: rows };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

import type { GroupProtocol } from "@stream-registry/provider-api";
import type { Admin } from "kafkajs";
import { forEachBounded } from "@stream-registry/core";

/** What the classic describe call (or the lack of an answer from it) says about a group. */
export interface GroupFacts {
  group: string;
  state: string;
  protocol: GroupProtocol;
  members: number | null;
}

/** A group's committed offsets: topic -> partition -> offset (only partitions it committed on). */
export type CommittedOffsets = Map<string, Map<number, number>>;

/**
 * The consumer groups of the cluster, as one ListGroups request per broker lists them. Kafka
 * Connect's worker groups (protocol type "connect") coordinate workers, not consumers: left out.
 */
export async function listConsumerGroups(admin: Admin): Promise<string[]> {
  const { groups } = await admin.listGroups();
  return [...new Set(groups.filter((g) => g.protocolType !== "connect").map((g) => g.groupId))].sort();
}

/**
 * Each group's state, protocol and member count: one DescribeGroups request per coordinator.
 *
 * DescribeGroups is the classic protocol's call: a group on the consumer protocol (KIP-848), which
 * ListGroups lists, is answered as Dead (or with an error, which makes kafkajs reject the whole
 * request; then each group is described alone). Such a group is reported with protocol "consumer"
 * and state "Unknown": its lag is still computed, from its committed offsets.
 */
export async function describeConsumerGroups(
  admin: Admin,
  groups: readonly string[],
): Promise<Map<string, GroupFacts>> {
  const facts = new Map<string, GroupFacts>();
  if (groups.length === 0) return facts;
  const described = await admin.describeGroups([...groups]).then(
    (answer) => answer.groups,
    async () => {
      const one = await Promise.all(
        groups.map((group) =>
          admin.describeGroups([group]).then(
            (answer) => answer.groups,
            () => [],
          ),
        ),
      );
      return one.flat();
    },
  );
  for (const d of described) {
    const state: string = d.state;
    const classic = state !== "Dead" && state !== "";
    facts.set(d.groupId, {
      group: d.groupId,
      state: classic ? state : "Unknown",
      protocol: classic ? "classic" : "consumer",
      members: classic ? d.members.length : null,
    });
  }
  for (const group of groups) {
    if (!facts.has(group)) facts.set(group, { group, state: "Unknown", protocol: "unknown", members: null });
  }
  return facts;
}

/**
 * Every group's committed offsets on every topic: one OffsetFetch request per group (for all the
 * topics it committed on), `concurrency` groups at a time. A group whose offsets cannot be read is
 * left out (it reads nothing the registry can show this round).
 */
export async function fetchCommittedOffsets(
  admin: Admin,
  groups: readonly string[],
  concurrency: number,
): Promise<Map<string, CommittedOffsets>> {
  const committed = new Map<string, CommittedOffsets>();
  await forEachBounded(groups, concurrency, async (groupId) => {
    const topics = await admin.fetchOffsets({ groupId }).catch(() => []);
    const byTopic: CommittedOffsets = new Map();
    for (const { topic, partitions } of topics) {
      const own = new Map<number, number>();
      for (const { partition, offset } of partitions) {
        const value = Number(offset);
        if (value >= 0) own.set(partition, value);
      }
      if (own.size > 0) byTopic.set(topic, own);
    }
    if (byTopic.size > 0) committed.set(groupId, byTopic);
  });
  return committed;
}

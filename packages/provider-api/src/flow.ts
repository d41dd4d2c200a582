import type { ClusterTarget, OperationContext } from "./operation.ts";

/**
 * Data in flight, as a provider reads it from the platform (for Kafka: the brokers themselves).
 * Plain JSON; offsets are numbers (a Kafka offset stays below 2^53 in practice).
 */

/** One partition of a stream's topic: its first and next offsets (the end is where the next record goes). */
export interface PartitionOffsets {
  partition: number;
  start: number;
  end: number;
}

/** A consumer group's position on one partition of the stream. */
export interface GroupPartitionFlow {
  partition: number;
  /** The group's committed offset; null when it has committed nothing on this partition. */
  committed: number | null;
  /** The partition's end offset when the committed offset was read. */
  end: number;
  /** end - committed (never below 0); with nothing committed, end - start: all it has yet to read. */
  lag: number;
}

/**
 * How a group's members coordinate: "classic" (the JoinGroup protocol) or "consumer" (KIP-848,
 * Kafka 4's new consumer protocol); "unknown" when the platform would not say.
 */
export type GroupProtocol = "classic" | "consumer" | "unknown";

/** A consumer group reading a stream: its committed offsets and lag on each of the stream's partitions. */
export interface ConsumerGroupFlow {
  group: string;
  /**
   * The group's state as the platform reports it (Kafka: Stable, Empty, PreparingRebalance,
   * CompletingRebalance, Dead), or "Unknown" for a group on the consumer protocol, whose state the
   * classic describe call cannot read.
   */
  state: string;
  protocol: GroupProtocol;
  /** How many members it has now; null when unknown (a group the classic describe cannot read). */
  members: number | null;
  /** The sum of its partitions' lags. */
  lag: number;
  partitions: GroupPartitionFlow[];
}

/** What is flowing through one stream on the cluster. */
export interface StreamFlow {
  stream: string;
  partitions: PartitionOffsets[];
  /** Records the topic holds now: the sum of end - start. */
  records: number;
  /** Every group with committed offsets on the stream's topic. */
  groups: ConsumerGroupFlow[];
  /** Why this stream could not be read (its topic is gone, ...); the others are still answered. */
  error?: string;
}

/** One observation of a cluster's streams, in the order they were asked for. */
export interface FlowObservation {
  /** When the platform was read (ISO 8601). */
  observedAt: string;
  streams: StreamFlow[];
}

/**
 * A provider's reader of data in flight: one call per cluster per round answers every stream bound
 * on it, so that a provider can batch (Kafka: one group listing, one describe per coordinator, one
 * offset fetch per group, end offsets per topic), and the registry polls it in the background, never
 * per request. A stream whose topic is missing gets `error`, not a rejection; a cluster out of reach
 * rejects with an InfrastructureError.
 */
export interface FlowObserver {
  observeFlow(
    cluster: ClusterTarget,
    streams: readonly string[],
    context: OperationContext,
  ): Promise<FlowObservation>;
  /**
   * The consumer group a stream sink of this name reads its stream with (Kafka Connect:
   * "connect-<connector name>"): what the registry counts its processed records and lag by.
   */
  sinkGroup?(sinkName: string): string;
}

/**
 * What a stream source or sink is doing, derived from the data in flight of the binding it writes
 * or reads (the registry's poller reads it; nothing here touches a platform).
 *
 * - A sink reads its stream with a consumer group of its own (Kafka Connect: `connect-<connector
 *   name>`): the records it processed are the sum of that group's committed offsets over the
 *   topic's partitions (every record it consumed and committed since it was created, whatever
 *   retention deleted since); its lag is the group's; it is processing when its lag is zero or its
 *   committed offsets moved (or its lag shrank) since the previous poll.
 * - A source writes its stream: the records it processed are the sum of the topic's end offsets,
 *   every record written to the topic since it was made (the binding made it; records other
 *   producers wrote to the same topic count too, as Kafka cannot tell them apart); it is processing
 *   when records arrived since the previous poll. It has no lag.
 * `processing` is null when it cannot be told yet (the first poll; a sink whose group has committed
 * nothing, with records waiting).
 */

/** One poll of the binding, as far as a source or sink needs it. */
export interface ConnectorFlowReading {
  partitions: readonly { end: number }[];
  groups: readonly { group: string; lag: number; partitions: readonly { committed: number | null }[] }[];
}

export interface ConnectorFlowFacts {
  processed: number;
  processing: boolean | null;
  /** A sink's group's lag; null for a source, and for a sink whose group committed nothing yet. */
  lag: number | null;
}

/** A sink's facts from its group's view of the binding, now and at the previous poll. */
export function sinkFlow(
  group: string,
  now: ConnectorFlowReading,
  before: ConnectorFlowReading | undefined,
): ConnectorFlowFacts {
  const current = sinkPosition(group, now);
  if (!current) {
    const waiting = now.partitions.some((p) => p.end > 0);
    return { processed: 0, processing: waiting ? null : true, lag: null };
  }
  const previous = before && sinkPosition(group, before);
  const processing =
    current.lag === 0
      ? true
      : previous
        ? current.processed > previous.processed || current.lag < previous.lag
        : null;
  return { processed: current.processed, processing, lag: current.lag };
}

/** A source's facts from the binding's end offsets, now and at the previous poll. */
export function sourceFlow(
  now: ConnectorFlowReading,
  before: ConnectorFlowReading | undefined,
): ConnectorFlowFacts {
  const written = (reading: ConnectorFlowReading) => reading.partitions.reduce((sum, p) => sum + p.end, 0);
  const processed = written(now);
  return { processed, processing: before ? processed > written(before) : null, lag: null };
}

function sinkPosition(group: string, reading: ConnectorFlowReading) {
  const found = reading.groups.find((g) => g.group === group);
  if (!found) return undefined;
  const processed = found.partitions.reduce((sum, p) => sum + (p.committed ?? 0), 0);
  return { processed, lag: found.lag };
}

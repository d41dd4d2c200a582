import {
  DEFAULT_MIN_SAMPLES,
  partitionHealth,
  producedPerSecond,
  worstHealth,
  type GroupHealth,
  type LagSample,
} from "./flow-health.ts";

/** One poll of a stream, as far as judging it goes (provider-api's StreamFlow fits it). */
export interface FlowReading {
  partitions: readonly { partition: number; end: number }[];
  groups: readonly {
    group: string;
    members: number | null;
    partitions: readonly { partition: number; committed: number | null; lag: number }[];
  }[];
}

/** What the window says of a stream after a poll. */
export interface FlowJudgement {
  /** Records per second since the previous poll; null on the first. */
  producedPerSecond: number | null;
  /** Each group's health by its name. */
  health: Map<string, GroupHealth>;
}

export interface FlowHistoryOptions {
  /** Samples kept per partition of each group (Burrow's `intervals`); default 10. */
  windowSize?: number;
  /** Samples a verdict needs before it can be anything but OK; default 3. */
  minSamples?: number;
}

interface StreamWindow {
  lastEnd: { at: number; end: number } | undefined;
  /** By group, then partition: the samples, oldest first. */
  groups: Map<string, Map<number, LagSample[]>>;
}

/**
 * The sliding windows of the streams a poller reads, in memory: per stream (by a key of the
 * caller's, e.g. a binding's id), the last end-offset sum and, per group and partition, the last
 * `windowSize` lag samples. A group no longer in a reading, and a stream no longer retained, is
 * forgotten, so memory follows what the cluster has now.
 */
export class FlowHistory {
  private readonly streams = new Map<string, StreamWindow>();
  private readonly windowSize: number;
  private readonly minSamples: number;

  constructor(options: FlowHistoryOptions = {}) {
    this.windowSize = options.windowSize ?? 10;
    this.minSamples = options.minSamples ?? DEFAULT_MIN_SAMPLES;
    if (!Number.isInteger(this.windowSize) || this.windowSize < 2) {
      throw new RangeError(`windowSize must be an integer of at least 2, got ${this.windowSize}`);
    }
  }

  /** Adds one poll of the stream `key` read at `at` (ms) and judges it. */
  record(key: string, at: number, reading: FlowReading): FlowJudgement {
    let window = this.streams.get(key);
    if (!window) this.streams.set(key, (window = { lastEnd: undefined, groups: new Map() }));
    const end = { at, end: reading.partitions.reduce((sum, p) => sum + p.end, 0) };
    const rate = producedPerSecond(window.lastEnd, end);
    window.lastEnd = end;
    const health = new Map<string, GroupHealth>();
    const seen = new Set<string>();
    for (const group of reading.groups) {
      seen.add(group.group);
      let partitions = window.groups.get(group.group);
      if (!partitions) window.groups.set(group.group, (partitions = new Map()));
      const membership = group.members === null ? null : group.members > 0;
      const verdicts: GroupHealth[] = [];
      for (const { partition, committed, lag } of group.partitions) {
        let samples = partitions.get(partition);
        if (!samples) partitions.set(partition, (samples = []));
        samples.push({ at, committed, lag });
        if (samples.length > this.windowSize) samples.splice(0, samples.length - this.windowSize);
        verdicts.push(partitionHealth(samples, membership, this.minSamples));
      }
      health.set(group.group, worstHealth(verdicts));
    }
    for (const group of window.groups.keys()) if (!seen.has(group)) window.groups.delete(group);
    return { producedPerSecond: rate, health };
  }

  /** Forgets every stream whose key is not in `keys`. */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.streams.keys()) if (!keys.has(key)) this.streams.delete(key);
  }

  /** How many streams it keeps windows for. */
  get size(): number {
    return this.streams.size;
  }
}

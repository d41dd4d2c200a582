/**
 * A consumer group's health, judged from the lag samples the registry's poller keeps: Burrow's
 * consumer lag evaluation rules (github.com/linkedin/Burrow, "Consumer Lag Evaluation Rules"), over a
 * sliding window of the last samples of each partition the group reads.
 *
 * Burrow reads every commit (with its time) from __consumer_offsets; the registry samples the
 * committed offsets once a poll. So "the consumer commits" is known only as "the committed offset
 * moved", and whether a consumer that does not move is still there comes from the group's members
 * (the classic describe call), which is unknown for a group on the consumer protocol (KIP-848).
 *
 * Per partition, over the window (samples oldest first; a rewind, the committed offset going back,
 * starts the window again from it, as a reset is an operator's act):
 * 1. Fewer than `minSamples` samples: OK (too early to judge).
 * 2. The lag is zero in any sample: OK (Burrow's rule 1).
 * 3. The committed offset did not move across the window while the lag stayed above zero (rule 2,
 *    and rule 4 when nobody commits):
 *    - STOP: the group has no members: commits stopped, the last one older than the window.
 *    - STALL: the group has members: they are there but commit the same offset (stuck on a record).
 *    - ERR: whether it has members is unknown (a consumer-protocol group): the consumer has stopped
 *      moving with lag to read, and the registry cannot say more.
 * 4. The committed offset moved, but the lag never went down between two samples (rule 3): WARN,
 *    the consumer commits but falls behind.
 * 5. Otherwise: OK.
 *
 * The group's health is its worst partition's, in the order OK < WARN < STALL < ERR < STOP.
 */

export const GROUP_HEALTHS = ["OK", "WARN", "STALL", "ERR", "STOP"] as const;
export type GroupHealth = (typeof GROUP_HEALTHS)[number];

/** A group's position on one partition, as one poll saw it. */
export interface LagSample {
  /** When the poll read it (ms since the epoch). */
  at: number;
  committed: number | null;
  lag: number;
}

/** Whether the group has members now: null when the platform cannot say. */
export type Membership = boolean | null;

/** Samples a partition's verdict needs before it can be anything but OK. */
export const DEFAULT_MIN_SAMPLES = 3;

/** The verdict on one partition; `samples` oldest first, the window already cut to its size. */
export function partitionHealth(
  samples: readonly LagSample[],
  membership: Membership,
  minSamples = DEFAULT_MIN_SAMPLES,
): GroupHealth {
  const window = sinceLastRewind(samples);
  if (window.length < minSamples) return "OK";
  if (window.some((sample) => sample.lag === 0)) return "OK";
  const first = window[0]!;
  const last = window.at(-1)!;
  if (first.committed === last.committed) {
    if (membership === false) return "STOP";
    return membership === true ? "STALL" : "ERR";
  }
  for (let at = 1; at < window.length; at += 1) {
    if (window[at]!.lag < window[at - 1]!.lag) return "OK";
  }
  return "WARN";
}

/** The worst of the partitions' verdicts (OK for none). */
export function worstHealth(verdicts: Iterable<GroupHealth>): GroupHealth {
  let worst = 0;
  for (const verdict of verdicts) worst = Math.max(worst, GROUP_HEALTHS.indexOf(verdict));
  return GROUP_HEALTHS[worst]!;
}

/** The samples from the last one whose committed offset went back (the whole window if none did). */
function sinceLastRewind(samples: readonly LagSample[]): readonly LagSample[] {
  for (let at = samples.length - 1; at > 0; at -= 1) {
    const before = samples[at - 1]!.committed;
    const now = samples[at]!.committed;
    if (before !== null && (now === null || now < before)) return samples.slice(at);
  }
  return samples;
}

/**
 * Records per second produced between two readings of a stream's end offsets (their sum over the
 * partitions); null without an earlier reading, for no time between them, or when the sum went
 * back (the topic was deleted and made again).
 */
export function producedPerSecond(
  before: { at: number; end: number } | undefined,
  now: { at: number; end: number },
): number | null {
  if (!before || now.at <= before.at || now.end < before.end) return null;
  return ((now.end - before.end) * 1000) / (now.at - before.at);
}

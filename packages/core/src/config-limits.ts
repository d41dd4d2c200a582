/**
 * Size limits of config maps. Real platform configs are far smaller (a Kafka topic has about 40
 * settings; a PEM chain is a few KiB), and every listing reads and returns them, so one huge
 * stream must not slow every page. docs/api.md lists them.
 */
export const CONFIG_LIMITS = {
  /** Characters in one value (a PEM certificate chain or a JAAS config fits). */
  maxValueLength: 16_384,
  /** Keys in one config map. */
  maxKeysPerMap: 256,
  /** Config maps in one set (config, producerConfig or consumerConfig). */
  maxMaps: 32,
  /** Bytes of one set of config maps as JSON (UTF-8). */
  maxTotalBytes: 131_072,
} as const;

/** Why a finite number cannot be kept exactly, or undefined when it can. */
export function numberProblem(value: number): string | undefined {
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return `${value} is beyond ±2^53-1 and would be rounded; ` + `give it as a string to keep every digit`;
  }
  return undefined;
}

import type { logCreator, LogEntry } from "kafkajs";
import { logLevel } from "../kafkajs.ts";

export type KafkaLogLevel = "nothing" | "error" | "warn" | "info" | "debug";

const LEVELS: Record<KafkaLogLevel, number> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

export function kafkaLogLevel(level: KafkaLogLevel): number {
  return LEVELS[level];
}

/**
 * The level when none is given: KAFKA_PROVIDER_LOG_LEVEL, else "nothing". kafkajs logs every broker
 * error response at ERROR (a describe of a missing topic, each reconnect attempt), all of which the
 * provider already reports through its errors and cluster health.
 */
export function defaultKafkaLogLevel(env: NodeJS.ProcessEnv = process.env): KafkaLogLevel {
  const value = env["KAFKA_PROVIDER_LOG_LEVEL"]?.toLowerCase();
  if (value === undefined || value === "") return "nothing";
  if (!Object.hasOwn(LEVELS, value)) {
    throw new Error(
      `KAFKA_PROVIDER_LOG_LEVEL must be one of ${Object.keys(LEVELS).join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
  return value as KafkaLogLevel;
}

/** Where kafkajs log lines go; the default writes one JSON line per entry to stderr. */
export type KafkaLogSink = (entry: {
  level: string;
  namespace: string;
  message: string;
  [key: string]: unknown;
}) => void;

const stderrSink: KafkaLogSink = (entry) => {
  process.stderr.write(`${JSON.stringify({ source: "kafkajs", ...entry })}\n`);
};

/**
 * Routes kafkajs logging to `sink` as structured entries. kafkajs' own default logger prints
 * multi-line text to stdout, which would mix with the registry's JSON logs.
 */
export function kafkaLogCreator(sink: KafkaLogSink = stderrSink): logCreator {
  return () =>
    ({ namespace, level, label, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, ...extra } = log;
      sink({ level: label.toLowerCase(), namespace, message, kafkaLevel: level, ...extra });
    };
}

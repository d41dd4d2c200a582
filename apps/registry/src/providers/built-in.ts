import { createKafkaProvider, type KafkaLogSink } from "@stream-registry/provider-kafka";
import type { StreamProvider } from "@stream-registry/provider-api";
import type { Logger } from "../logger.ts";
import { registryOnlyProvider } from "./registry-only.ts";

/** Packages whose providers every registry has; naming them in REGISTRY_PROVIDERS changes nothing. */
export const BUILT_IN_MODULES: ReadonlySet<string> = new Set(["@stream-registry/provider-kafka"]);

/**
 * The providers every registry loads: registry-only (metadata only) and the generic Kafka provider.
 * Each registry gets a Kafka provider of its own (its own admin clients, closed when it stops),
 * logging through the registry's logger.
 */
export function builtInProviders(logger?: Logger): StreamProvider[] {
  return [registryOnlyProvider, createKafkaProvider(logger ? { logSink: kafkaLogSink(logger) } : {})];
}

function kafkaLogSink(logger: Logger): KafkaLogSink {
  const log = logger.child({ component: "kafkajs" });
  return ({ level, message, ...rest }) => {
    const method =
      level === "error" ? "error" : level === "warn" ? "warn" : level === "info" ? "info" : "debug";
    log[method](rest, message);
  };
}

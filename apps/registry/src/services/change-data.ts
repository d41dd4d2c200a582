import { redactSecrets, type ConfigMaps, type SecretKeyRule } from "@stream-registry/core";

const CONFIG_FIELDS = ["config", "producerConfig", "consumerConfig"] as const;

/**
 * A change-log entry's data as it may be shown: its config maps redacted again by today's rule,
 * since entries written before a key counted as secret (an older rule, a provider loaded since)
 * may hold it in clear. Redacting what is already redacted changes nothing.
 */
export function redactChangeData(data: unknown, secrets: SecretKeyRule): unknown {
  if (!isJsonObject(data)) return data;
  const shown: Record<string, unknown> = { ...data };
  for (const field of CONFIG_FIELDS) {
    const maps = shown[field];
    if (isJsonObject(maps) && Object.values(maps).every(isJsonObject)) {
      shown[field] = redactSecrets(maps as ConfigMaps, secrets);
    }
  }
  return shown;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
